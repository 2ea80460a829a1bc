package io.mailbox.examples.orders.billing;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;

/** An invoice, written by the ledger in the inbox's transaction: at most once per event. */
@Entity
@Table(name = "SHOP_INVOICE")
public class Invoice {
  @Id
  @Column(name = "ID", length = 36)
  private String id;

  @Column(name = "ORDER_ID", length = 36, nullable = false)
  private String orderId;

  @Column(name = "EVENT_ID", length = 128, nullable = false)
  private String eventId;

  @Column(name = "CREATED_AT", nullable = false)
  private Instant createdAt;

  protected Invoice() {
    // for JPA
  }

  public Invoice(String id, String orderId, String eventId, Instant createdAt) {
    this.id = Objects.requireNonNull(id);
    this.orderId = Objects.requireNonNull(orderId);
    this.eventId = Objects.requireNonNull(eventId);
    this.createdAt = Objects.requireNonNull(createdAt);
  }

  public String orderId() {
    return orderId;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Invoice that && Objects.equals(id, that.id);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(id);
  }
}
