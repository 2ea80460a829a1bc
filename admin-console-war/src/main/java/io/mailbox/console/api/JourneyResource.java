package io.mailbox.console.api;

import io.mailbox.ejb.operations.JourneyHop;
import io.mailbox.ejb.operations.MessageJourney;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** "Where is my message?" for scripts: {@code ?q=} a message id, envelope id, copy key or text. */
@Path("journey")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class JourneyResource {
  @EJB MessageJourney journey;

  @GET
  public JsonObject search(@QueryParam("q") String q) {
    JourneyHop.Journey found = journey.search(Requests.required("q", q));
    JsonArrayBuilder hops = Json.createArrayBuilder();
    for (JourneyHop hop : found.hops()) {
      JsonObjectBuilder json =
          Json.createObjectBuilder()
              .add("hop", hop.hop())
              .add("where", hop.where())
              .add("state", hop.state())
              .add("detail", hop.detail())
              .add("key", hop.key())
              .add("actions", Json.createArrayBuilder(hop.actions()));
      if (hop.at() != null) {
        json.add("at", hop.at().toString());
      }
      hops.add(json);
    }
    return Json.createObjectBuilder()
        .add("q", found.term())
        .add("hops", hops)
        .add("notes", Json.createArrayBuilder(found.notes()))
        .add("truncated", found.truncated())
        .build();
  }
}
