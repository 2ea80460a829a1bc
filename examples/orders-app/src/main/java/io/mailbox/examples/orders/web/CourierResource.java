package io.mailbox.examples.orders.web;

import io.mailbox.examples.orders.shipping.Courier;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /orders-app/api/courier?down=true} takes the (pretend) courier service down: shipping
 * requests then fail and are dead-lettered; {@code ?down=false} brings it back, and an operator
 * replays the dead letters from the console. A demonstration switch, nothing more.
 */
@Path("courier")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class CourierResource {
  @EJB private Courier courier;

  @POST
  public JsonObject set(@QueryParam("down") boolean down) {
    courier.setCourierDown(down);
    return Json.createObjectBuilder().add("courierDown", down).build();
  }
}
