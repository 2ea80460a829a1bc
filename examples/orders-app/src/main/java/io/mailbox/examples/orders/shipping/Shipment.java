package io.mailbox.examples.orders.shipping;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;

/**
 * One shipment, written by shipping in the inbox's transaction. Deliberately not keyed by order:
 * the inbox is what keeps a redelivered request from shipping twice, and a test counting rows per
 * order would see it if it did not.
 */
@Entity
@Table(name = "SHOP_SHIPMENT")
public class Shipment {
  @Id
  @Column(name = "ID", length = 36)
  private String id;

  @Column(name = "ORDER_ID", length = 36, nullable = false)
  private String orderId;

  @Column(name = "EVENT_ID", length = 128, nullable = false)
  private String eventId;

  @Column(name = "SHIPPED_AT", nullable = false)
  private Instant shippedAt;

  protected Shipment() {
    // for JPA
  }

  public Shipment(String id, String orderId, String eventId, Instant shippedAt) {
    this.id = Objects.requireNonNull(id);
    this.orderId = Objects.requireNonNull(orderId);
    this.eventId = Objects.requireNonNull(eventId);
    this.shippedAt = Objects.requireNonNull(shippedAt);
  }

  public String orderId() {
    return orderId;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Shipment that && Objects.equals(id, that.id);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(id);
  }
}
