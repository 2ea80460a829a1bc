package io.mailbox.examples.orders.web;

import io.mailbox.examples.orders.OrderDesk;
import io.mailbox.examples.orders.billing.InvoiceWriter;
import io.mailbox.examples.orders.shipping.Shipments;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /orders-app/api/orders?item=book&quantity=2} places an order ({@code &notes=2} adds
 * two {@code orders.noted.v1} events behind it; {@code &fail=true} rolls its transaction back after
 * writing: nothing is delivered); {@code GET /orders-app/api/orders/progress} lists what billing
 * invoiced and shipping shipped.
 */
@Path("orders")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {
  private static final int MAX_QUANTITY = 1000;
  private static final int MAX_NOTES = 10;

  @EJB private OrderDesk desk;
  @EJB private InvoiceWriter invoices;
  @EJB private Shipments shipments;

  @POST
  public Response place(
      @QueryParam("item") @DefaultValue("book") String item,
      @QueryParam("quantity") @DefaultValue("1") int quantity,
      @QueryParam("notes") @DefaultValue("0") int notes,
      @QueryParam("fail") @DefaultValue("false") boolean fail) {
    if (item.isBlank()
        || item.length() > 100
        || quantity < 1
        || quantity > MAX_QUANTITY
        || notes < 0
        || notes > MAX_NOTES) {
      JsonObject error =
          Json.createObjectBuilder()
              .add("code", "ORD-400")
              .add(
                  "message",
                  "item must be 1-100 characters, quantity 1-"
                      + MAX_QUANTITY
                      + " and notes 0-"
                      + MAX_NOTES)
              .build();
      return Response.status(Response.Status.BAD_REQUEST).entity(error).build();
    }
    String orderId = desk.place(item, quantity, notes, fail);
    boolean committed = desk.exists(orderId);
    return Response.status(committed ? Response.Status.ACCEPTED : Response.Status.CONFLICT)
        .entity(
            Json.createObjectBuilder().add("orderId", orderId).add("committed", committed).build())
        .build();
  }

  @GET
  @Path("progress")
  public JsonObject progress() {
    var invoiced = Json.createArrayBuilder();
    invoices.invoicedOrders(100).forEach(invoiced::add);
    var shipped = Json.createArrayBuilder();
    shipments.shippedOrders(100).forEach(shipped::add);
    return Json.createObjectBuilder().add("invoiced", invoiced).add("shipped", shipped).build();
  }
}
