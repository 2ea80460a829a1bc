package io.mailbox.console.api;

import io.mailbox.ejb.audit.AuditLog;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Every change anyone made through the console or the API, newest first. */
@Path("audit")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {
  @EJB AuditLog audit;

  @GET
  public JsonObject recent(@QueryParam("limit") String limit) {
    return Json.createObjectBuilder()
        .add("entries", JsonViews.array(audit.recent(Requests.limit(limit, 50)), JsonViews::audit))
        .build();
  }
}
