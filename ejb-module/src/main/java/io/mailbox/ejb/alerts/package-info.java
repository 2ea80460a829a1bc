/**
 * Thresholds and alerts: rules read from MicroProfile Config ({@link AlertRules}), each naming the
 * addresses it watches and the limits of their {@link AlertMeasure}s; a snapshot checked against
 * them gives {@link AlertBreach}es, and {@link AlertState} keeps which are active since when and
 * how many began. The console evaluates them with each metrics reading, and they show on the
 * dashboard, in readiness ({@code threshold:<rule>}) and in the metrics (docs/observability.md,
 * "Alerts").
 */
package io.mailbox.ejb.alerts;
