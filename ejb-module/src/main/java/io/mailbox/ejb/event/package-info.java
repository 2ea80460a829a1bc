/** Integration events: versioned definitions and the portable envelope, validated on both sides. */
package io.mailbox.ejb.event;
