package io.mailbox.console.api;

import io.mailbox.console.security.Roles;
import jakarta.annotation.security.DeclareRoles;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The admin REST API, under {@code /console/api}: the console's operations for scripts and CI, JSON
 * in and out, HTTP basic. GET needs {@value Roles#VIEWER} or {@value Roles#OPERATOR}; POST and
 * DELETE need {@value Roles#OPERATOR} (web.xml constraints, checked by the server before any code
 * runs). Every change is audited. The OpenAPI document is served by the server at {@code /openapi}.
 */
@ApplicationPath("api")
@DeclareRoles({Roles.VIEWER, Roles.OPERATOR})
public class AdminApi extends Application {}
