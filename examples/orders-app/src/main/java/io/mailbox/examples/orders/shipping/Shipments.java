package io.mailbox.examples.orders.shipping;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/** Shipment rows. Writes join the inbox's transaction (MANDATORY): never one of their own. */
@Stateless
public class Shipments {
  @PersistenceContext(unitName = "shop")
  private EntityManager shop;

  @TransactionAttribute(TransactionAttributeType.MANDATORY)
  public void record(Shipment shipment) {
    shop.persist(shipment);
    // Flushed inside the handler: on Payara a connection first taken while the transaction commits
    // is not enlisted in it, so a write left to commit time can commit without the inbox marker
    // (measured after kill -9: shipped twice). docs/reliability.md, "Writes in handlers".
    shop.flush();
  }

  /** The orders shipped most recently, newest first. */
  @TransactionAttribute(TransactionAttributeType.SUPPORTS)
  public List<String> shippedOrders(int limit) {
    return shop.createQuery(
            "SELECT s.orderId FROM Shipment s ORDER BY s.shippedAt DESC", String.class)
        .setMaxResults(limit)
        .getResultList();
  }
}
