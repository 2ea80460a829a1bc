/** How the application's services reach the resource adapter. */
package io.mailbox.ejb.adapter;
