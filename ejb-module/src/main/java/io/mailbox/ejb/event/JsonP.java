package io.mailbox.ejb.event;

import jakarta.json.spi.JsonProvider;

/**
 * The JSON-P provider, looked up once: {@code Json.createReader} and friends run the provider
 * lookup (a service-loader scan of the class path) on every call, which showed as the largest cost
 * of writing and relaying outbox rows in a profile of {@code bin/bench relay}.
 */
public final class JsonP {
  public static final JsonProvider PROVIDER = JsonProvider.provider();

  private JsonP() {}
}
