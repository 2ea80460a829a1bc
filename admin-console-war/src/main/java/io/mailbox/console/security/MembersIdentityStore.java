package io.mailbox.console.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.authentication.mechanism.http.BasicAuthenticationMechanismDefinition;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Optional;

/**
 * Jakarta Security for the admin API: HTTP basic against {@link Members}. The roles travel as
 * groups; the server maps groups to roles of the same name (Payara: default principal-to-role
 * mapping, set by the post-boot file). Console pages are not behind this mechanism: only {@code
 * /api/*} is constrained (web.xml), so a request without credentials elsewhere passes untouched.
 */
@BasicAuthenticationMechanismDefinition(realmName = "mailbox")
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
