/**
 * The admin REST API under {@code /console/api}: resources, their request checks, and the one place
 * every refusal becomes a JSON error with a stable code.
 */
package io.mailbox.console.api;
