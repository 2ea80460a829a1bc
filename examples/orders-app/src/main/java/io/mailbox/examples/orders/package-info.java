/**
 * A tiny shop: placing an order (REST) posts an "order placed" letter in the same transaction;
 * billing (an MDB) receives it. Start here to see a message move.
 */
package io.mailbox.examples.orders;
