package io.mailbox.console.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Optional;

/**
 * The identity store of the console and the admin API ({@link MailboxAuthenticationMechanism}):
 * checks credentials against {@link Members}. The roles travel as groups; the server maps groups to
 * roles of the same name (Payara: default principal-to-role mapping, set by the post-boot file).
 */
@ApplicationScoped
public class MembersIdentityStore implements IdentityStore {
  @Inject Members members;

  @Override
  public CredentialValidationResult validate(Credential credential) {
    if (!(credential instanceof UsernamePasswordCredential login)) {
      return CredentialValidationResult.NOT_VALIDATED_RESULT;
    }
    Optional<Members.Member> member =
        members.authenticate(login.getCaller(), login.getPasswordAsString());
    return member
        .map(m -> new CredentialValidationResult(m.account().username(), m.roles()))
        .orElse(CredentialValidationResult.INVALID_RESULT);
  }
}
