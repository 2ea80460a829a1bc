package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.kernel.RetryPolicy;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import java.time.Duration;
import java.util.Optional;

/**
 * An MDB's configuration, set with {@code @ActivationConfigProperty}:
 *
 * <table>
 *   <caption>Activation properties</caption>
 *   <tr><th>property</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>address</td><td>the address whose messages the MDB receives</td><td>required</td></tr>
 *   <tr><td>manualAck</td><td>false: a subscription, settled by the MDB's return or exception
 *       ({@code MailboxListener}); true: leased fetches the MDB settles itself
 *       ({@code MailboxDeliveryListener})</td><td>false</td></tr>
 *   <tr><td>maxConcurrency</td><td>deliveries running at once for this endpoint</td><td>10</td></tr>
 *   <tr><td>retryMaxAttempts</td><td>attempts per delivery (subscription mode), overriding the
 *       adapter's; 0 keeps the adapter's</td><td>0</td></tr>
 *   <tr><td>retryBaseDelayMillis</td><td>first backoff of that retry policy</td><td>1000</td></tr>
 *   <tr><td>leaseMillis</td><td>the lease of each delivery in manual-ack mode; 0 never expires</td>
 *       <td>30000</td></tr>
 *   <tr><td>pollIntervalMillis</td><td>how long manual-ack mode waits when the queue was empty</td>
 *       <td>200</td></tr>
 * </table>
 */
public class MailboxActivationSpec implements ActivationSpec {
  private String address;
  private Boolean manualAck = Boolean.FALSE;
  private Integer maxConcurrency = 10;
  private Integer retryMaxAttempts = 0;
  private Long retryBaseDelayMillis = 1_000L;
  private Long leaseMillis = 30_000L;
  private Long pollIntervalMillis = 200L;
  private ResourceAdapter resourceAdapter;

  /** The parsed address; {@link #validate()} has refused a bad one before this is called. */
  public MailAddress mailAddress() {
    return MailAddress.parse(address);
  }

  /** This endpoint's own retry policy, when it sets one. */
  public Optional<RetryPolicy> retryPolicy() {
    return retryMaxAttempts == null || retryMaxAttempts == 0
        ? Optional.empty()
        : Optional.of(RetryPolicy.of(retryMaxAttempts, Duration.ofMillis(retryBaseDelayMillis)));
  }

  @Override
  public void validate() throws InvalidPropertyException {
    if (address == null || address.isBlank()) {
      throw invalid(
          "The MDB has no 'address' activation property; add"
              + " @ActivationConfigProperty(propertyName = \"address\", propertyValue = \"mem:user@host/path\").",
          null);
    }
    if (retryMaxAttempts == null || retryMaxAttempts < 0) {
      throw invalid(
          "retryMaxAttempts must be 0 (the adapter's policy) or more, was "
              + retryMaxAttempts
              + ".",
          null);
    }
    try {
      MailAddress.parse(address);
      retryPolicy();
    } catch (MailboxException e) {
      throw invalid(e.getMessage(), e);
    }
    if (maxConcurrency == null || maxConcurrency < 1 || maxConcurrency > 1000) {
      throw invalid("maxConcurrency must be between 1 and 1000, was " + maxConcurrency + ".", null);
    }
    if (leaseMillis == null
        || leaseMillis < 0
        || pollIntervalMillis == null
        || pollIntervalMillis < 1) {
      throw invalid("leaseMillis must be 0 or more and pollIntervalMillis at least 1.", null);
    }
  }

  private static InvalidPropertyException invalid(String why, Throwable cause) {
    InvalidPropertyException invalid =
        new InvalidPropertyException(ErrorCode.INVALID_ACTIVATION.code() + " " + why);
    if (cause != null) {
      invalid.initCause(cause);
    }
    return invalid;
  }

  public String getAddress() {
    return address;
  }

  public void setAddress(String address) {
    this.address = address;
  }

  public Boolean getManualAck() {
    return manualAck;
  }

  public void setManualAck(Boolean manualAck) {
    this.manualAck = manualAck;
  }

  public Integer getMaxConcurrency() {
    return maxConcurrency;
  }

  public void setMaxConcurrency(Integer maxConcurrency) {
    this.maxConcurrency = maxConcurrency;
  }

  public Integer getRetryMaxAttempts() {
    return retryMaxAttempts;
  }

  public void setRetryMaxAttempts(Integer retryMaxAttempts) {
    this.retryMaxAttempts = retryMaxAttempts;
  }

  public Long getRetryBaseDelayMillis() {
    return retryBaseDelayMillis;
  }

  public void setRetryBaseDelayMillis(Long retryBaseDelayMillis) {
    this.retryBaseDelayMillis = retryBaseDelayMillis;
  }

  public Long getLeaseMillis() {
    return leaseMillis;
  }

  public void setLeaseMillis(Long leaseMillis) {
    this.leaseMillis = leaseMillis;
  }

  public Long getPollIntervalMillis() {
    return pollIntervalMillis;
  }

  public void setPollIntervalMillis(Long pollIntervalMillis) {
    this.pollIntervalMillis = pollIntervalMillis;
  }

  @Override
  public ResourceAdapter getResourceAdapter() {
    return resourceAdapter;
  }

  @Override
  public void setResourceAdapter(ResourceAdapter resourceAdapter) throws ResourceException {
    this.resourceAdapter = resourceAdapter;
  }
}
