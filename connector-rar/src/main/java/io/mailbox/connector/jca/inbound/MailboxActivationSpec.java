package io.mailbox.connector.jca.inbound;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;

/**
 * An MDB's configuration: the address it consumes ({@code @ActivationConfigProperty(propertyName =
 * "address", propertyValue = "mem:orders@shop/placed")}).
 */
public class MailboxActivationSpec implements ActivationSpec {
  private String address;
  private ResourceAdapter resourceAdapter;

  /** The address whose messages the MDB receives. Required. */
  public String getAddress() {
    return address;
  }

  public void setAddress(String address) {
    this.address = address;
  }

  /** The parsed address; {@link #validate()} has refused a bad one before this is called. */
  public MailAddress mailAddress() {
    return MailAddress.parse(address);
  }

  @Override
  public void validate() throws InvalidPropertyException {
    if (address == null || address.isBlank()) {
      throw new InvalidPropertyException(
          ErrorCode.INVALID_ACTIVATION.code()
              + " The MDB has no 'address' activation property; add"
              + " @ActivationConfigProperty(propertyName = \"address\", propertyValue = \"mem:user@host/path\").");
    }
    try {
      MailAddress.parse(address);
    } catch (MailboxException e) {
      InvalidPropertyException invalid =
          new InvalidPropertyException(ErrorCode.INVALID_ACTIVATION.code() + " " + e.getMessage());
      invalid.initCause(e);
      throw invalid;
    }
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
