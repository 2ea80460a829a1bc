package io.mailbox.examples.orders;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;

/** A placed order: the business row the outbox row commits with. */
@Entity
@Table(name = "SHOP_ORDER")
public class ShopOrder {
  @Id
  @Column(name = "ID", length = 36)
  private String id;

  @Column(name = "ITEM", length = 100, nullable = false)
  private String item;

  @Column(name = "QUANTITY", nullable = false)
  private int quantity;

  @Column(name = "PLACED_AT", nullable = false)
  private Instant placedAt;

  protected ShopOrder() {
    // for JPA
  }

  public ShopOrder(String id, String item, int quantity, Instant placedAt) {
    this.id = Objects.requireNonNull(id);
    this.item = Objects.requireNonNull(item);
    this.quantity = quantity;
    this.placedAt = Objects.requireNonNull(placedAt);
  }

  public String id() {
    return id;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ShopOrder that && Objects.equals(id, that.id);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(id);
  }
}
