package io.mailbox.examples.orders.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The REST API lives under {@code /orders-app/api}. */
@ApplicationPath("api")
public class OrdersApplication extends Application {}
