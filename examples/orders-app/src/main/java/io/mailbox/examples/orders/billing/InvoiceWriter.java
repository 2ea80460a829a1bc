package io.mailbox.examples.orders.billing;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/** Invoice rows. Writes join the inbox's transaction (MANDATORY): never one of their own. */
@Stateless
public class InvoiceWriter {
  @PersistenceContext(unitName = "shop")
  private EntityManager shop;

  @TransactionAttribute(TransactionAttributeType.MANDATORY)
  public void write(Invoice invoice) {
    shop.persist(invoice);
    // Flushed inside the handler: on Payara a connection first taken while the transaction commits
    // is not enlisted in it, so a write left to commit time can commit without the inbox marker
    // (measured after kill -9: shipped twice). docs/reliability.md, "Writes in handlers".
    shop.flush();
  }

  @TransactionAttribute(TransactionAttributeType.SUPPORTS)
  public List<String> invoicedOrders(int limit) {
    return shop.createQuery(
            "SELECT i.orderId FROM Invoice i ORDER BY i.createdAt DESC", String.class)
        .setMaxResults(limit)
        .getResultList();
  }
}
