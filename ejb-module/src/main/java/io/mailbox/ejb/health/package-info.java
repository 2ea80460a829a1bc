/** MicroProfile Health checks over the resource adapter. */
package io.mailbox.ejb.health;
