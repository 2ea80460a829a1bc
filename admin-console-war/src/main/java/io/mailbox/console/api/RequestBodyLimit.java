package io.mailbox.console.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Refuses an admin API request body larger than {@value #MAX_BODY_BYTES_KEY} (default {@value
 * #DEFAULT_MAX_BODY_BYTES} bytes, 1 MiB) with 413 {@link ApiRefusal#BODY_TOO_LARGE}: at once when
 * {@code Content-Length} says so, otherwise as soon as that many bytes were read (a chunked body),
 * so no more than the limit is ever held for a request.
 */
@Provider
@PreMatching
public final class RequestBodyLimit implements ContainerRequestFilter {
  /** Config key (MicroProfile Config; environment {@code MAILBOX_API_MAX_BODY_BYTES}). */
  public static final String MAX_BODY_BYTES_KEY = "mailbox.api.max-body-bytes";

  /** 1 MiB: a thousand ids with room to spare; the largest body the API reads. */
  public static final long DEFAULT_MAX_BODY_BYTES = 1_048_576;

  private final long maxBytes;

  public RequestBodyLimit() {
    this(
        ConfigProvider.getConfig()
            .getOptionalValue(MAX_BODY_BYTES_KEY, Long.class)
            .orElse(DEFAULT_MAX_BODY_BYTES));
  }

  RequestBodyLimit(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    if (request.getLength() > maxBytes) {
      throw tooLarge();
    }
    if (request.hasEntity()) {
      request.setEntityStream(new Bounded(request.getEntityStream(), maxBytes));
    }
  }

  ApiRefusal tooLarge() {
    return new ApiRefusal(
        413,
        ApiRefusal.BODY_TOO_LARGE,
        "the body is larger than " + maxBytes + " bytes (" + MAX_BODY_BYTES_KEY + ")");
  }

  /** A stream that refuses to deliver more than its limit. */
  final class Bounded extends FilterInputStream {
    private long left;

    Bounded(InputStream in, long limit) {
      super(in);
      this.left = limit;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0 && --left < 0) {
        throw tooLarge();
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int read = super.read(buffer, offset, length);
      if (read > 0) {
        left -= read;
        if (left < 0) {
          throw tooLarge();
        }
      }
      return read;
    }
  }
}
