package io.mailbox.console.api;

import io.mailbox.ejb.inbox.InboxRow;
import io.mailbox.ejb.operations.OutboxOperations;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;
import java.util.List;
import java.util.Set;

/** Parked inbox deliveries and releasing them. */
@Path("inbox")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class InboxResource {
  @EJB OutboxOperations operations;

  @GET
  @Path("parked")
  public JsonObject parked(@QueryParam("limit") String limit) {
    JsonArrayBuilder rows = Json.createArrayBuilder();
    for (InboxRow row : operations.parkedInbox(Requests.limit(limit, 50))) {
      rows.add(
          Json.createObjectBuilder()
              .add("id", row.id())
              .add("consumer", row.consumer())
              .add("topic", row.topic())
              .add("eventId", row.envelopeId())
              .add("attempts", row.attempts())
              .add("lastError", row.lastError() == null ? "" : row.lastError()));
    }
    return Json.createObjectBuilder().add("rows", rows).build();
  }

  /** {@code {"ids": [...], "retry": true}}: re-publish (retry) or keep skipped (discard). */
  @POST
  @Path("release")
  @Consumes(MediaType.APPLICATION_JSON)
  public JsonObject release(InputStream body) {
    JsonObject request = Requests.object(body, OutboxResource.RELEASE_BODY);
    Set<String> ids =
        Set.copyOf(Requests.strings(request, "ids", "rows", OutboxResource.RELEASE_BODY));
    boolean retry = Requests.bool(request, "retry", OutboxResource.RELEASE_BODY);
    List<InboxRow> rows =
        operations.parkedInbox(1000).stream().filter(row -> ids.contains(row.id())).toList();
    // Audited even when none of the ids is parked any more: the attempt is a change request too.
    int released = operations.releaseInbox(rows, retry);
    return Json.createObjectBuilder()
        .add("requested", ids.size())
        .add("released", released)
        .build();
  }
}
