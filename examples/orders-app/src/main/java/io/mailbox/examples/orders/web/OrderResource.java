package io.mailbox.examples.orders.web;

import io.mailbox.connector.api.ShutdownFilter;
import io.mailbox.examples.orders.OrderDesk;
import io.mailbox.examples.orders.PlacementProgress;
import io.mailbox.examples.orders.billing.InvoiceWriter;
import io.mailbox.examples.orders.shipping.Shipments;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * {@code POST /orders-app/api/orders?item=book&quantity=2} places an order ({@code &notes=2} adds
 * two {@code orders.noted.v1} events behind it; {@code &fail=true} rolls its transaction back after
 * writing: nothing is delivered; an {@code Idempotency-Key} header makes a retry safe); {@code GET
 * /orders-app/api/orders/{id}} says whether an order committed; {@code GET
 * /orders-app/api/orders/progress} lists what billing invoiced and shipping shipped.
 */
@Path("orders")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {
  private static final int MAX_QUANTITY = 1000;
  private static final int MAX_NOTES = 10;

  /**
   * A client's own id for an order (it becomes the order's id): sending the same request with the
   * same key again — after a timeout, a 503, a lost connection — never places the order twice.
   */
  public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-]{1,36}");

  @EJB private OrderDesk desk;
  @EJB private InvoiceWriter invoices;
  @EJB private Shipments shipments;

  @POST
  public Response place(
      @HeaderParam(IDEMPOTENCY_KEY) String idempotencyKey,
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
      return refusal(
          Response.Status.BAD_REQUEST,
          "ORD-400",
          "item must be 1-100 characters, quantity 1-"
              + MAX_QUANTITY
              + " and notes 0-"
              + MAX_NOTES);
    }
    if (idempotencyKey != null && !KEY.matcher(idempotencyKey).matches()) {
      // The value is never echoed: it is the client's, and may be anything.
      return refusal(
          Response.Status.BAD_REQUEST,
          "ORD-400",
          IDEMPOTENCY_KEY + " must be 1-36 letters, digits, '-' or '_' (a UUID fits)");
    }
    String orderId = idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString();
    PlacementProgress progress = new PlacementProgress();
    boolean placedNow;
    try {
      placedNow = desk.place(orderId, item, quantity, notes, fail, progress);
    } catch (EJBException failure) {
      if (existsIfReachable(orderId)) {
        // Committed although the commit reported a failure, or placed by a concurrent request
        // with the same key.
        return progress.written()
            ? answer(Response.Status.ACCEPTED, orderId, true, false)
            : answer(Response.Status.OK, orderId, true, true);
      }
      if (!progress.written()) {
        throw failure; // nothing was written (EjbFailureMapper: 503 when the cause is transient)
      }
      return outcomeUnknown(orderId, idempotencyKey != null);
    }
    if (!placedNow) {
      return answer(Response.Status.OK, orderId, true, true); // a retry of a committed order
    }
    // The call returned, so the container committed, unless the demo asked for a rollback: then
    // the database shows that nothing is there.
    boolean committed = !fail || desk.exists(orderId);
    return answer(
        committed ? Response.Status.ACCEPTED : Response.Status.CONFLICT, orderId, committed, false);
  }

  /** {@code GET /orders-app/api/orders/{id}}: 200 if that order committed, 404 if not. */
  @GET
  @Path("{orderId}")
  public Response find(@PathParam("orderId") String orderId) {
    if (!KEY.matcher(orderId).matches() || !desk.exists(orderId)) {
      return refusal(Response.Status.NOT_FOUND, "ORD-404", "no such order");
    }
    return answer(Response.Status.OK, orderId, true, false);
  }

  /**
   * The container's commit failed after everything was written, and the order cannot be found now
   * (or the database cannot be asked): it may have committed just before the connection broke. With
   * an idempotency key the client's retry is safe (503, come back); without one only the client can
   * decide, so it is told how to look.
   */
  private static Response outcomeUnknown(String orderId, boolean retrySafe) {
    String message =
        retrySafe
            ? "The order's commit was cut off and its outcome is unknown: send the same request"
                + " with the same "
                + IDEMPOTENCY_KEY
                + " again; a committed order is answered, never placed twice."
            : "The order's commit was cut off and its outcome is unknown: GET"
                + " /orders-app/api/orders/"
                + orderId
                + " tells whether it committed (send an "
                + IDEMPOTENCY_KEY
                + " header to make a retry safe).";
    JsonObject body =
        Json.createObjectBuilder()
            .add("code", "ORD-UNKNOWN-OUTCOME")
            .add("message", message)
            .add("orderId", orderId)
            .build();
    Response.ResponseBuilder response =
        Response.status(
                retrySafe
                    ? Response.Status.SERVICE_UNAVAILABLE
                    : Response.Status.INTERNAL_SERVER_ERROR)
            .type(MediaType.APPLICATION_JSON_TYPE)
            .entity(body);
    if (retrySafe) {
      response.header("Retry-After", ShutdownFilter.RETRY_AFTER_SECONDS);
    }
    return response.build();
  }

  /** Whether the order is there; false when the database cannot be asked either. */
  private boolean existsIfReachable(String orderId) {
    try {
      return desk.exists(orderId);
    } catch (EJBException unreachable) {
      return false;
    }
  }

  private static Response answer(
      Response.Status status, String orderId, boolean committed, boolean replayed) {
    var body = Json.createObjectBuilder().add("orderId", orderId).add("committed", committed);
    if (replayed) {
      body.add("replayed", true);
    }
    return Response.status(status).entity(body.build()).build();
  }

  private static Response refusal(Response.Status status, String code, String message) {
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .entity(Json.createObjectBuilder().add("code", code).add("message", message).build())
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
