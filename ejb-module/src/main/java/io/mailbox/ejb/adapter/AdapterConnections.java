package io.mailbox.ejb.adapter;

import io.mailbox.connector.api.MailboxConnectionFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The adapter's connection factory for the application's services ({@code @Inject
 * MailboxConnectionFactory}), looked up where {@value MailboxConnectionFactory#JNDI_NAME_PROPERTY}
 * says. The name differs per server (a global name on Payara Micro, the EAR's own {@code java:app/}
 * resource on Payara Server, {@code java:/} on WildFly), so it is configuration, not an annotation.
 */
@ApplicationScoped
public class AdapterConnections {

  /** The configured JNDI name, or the default. */
  public static String jndiName() {
    return ConfigProvider.getConfig()
        .getOptionalValue(MailboxConnectionFactory.JNDI_NAME_PROPERTY, String.class)
        .orElse(MailboxConnectionFactory.DEFAULT_JNDI_NAME);
  }

  @Produces
  @Dependent
  MailboxConnectionFactory connectionFactory() {
    return MailboxConnectionFactory.lookup(jndiName());
  }
}
