package io.mailbox.ejb.inbox;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs an {@code @Incoming} method through the consumer inbox named by its channel's configuration:
 *
 * <pre>{@code
 * mp.messaging.incoming.invoices-in.inbox.consumer=billing-ledger
 * mp.messaging.incoming.invoices-in.inbox.topic=billing.invoice-requested.v1
 *
 * @Incoming("invoices-in") @Inboxed
 * public void record(String envelope) { ... }   // runs at most once per event, in the marker's transaction
 * }</pre>
 *
 * The method must take the envelope ({@code String} or {@code Message<String>}) and do its work
 * synchronously; its database writes join the inbox transaction. A duplicate or parked delivery is
 * acknowledged without calling it.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Inboxed {}
