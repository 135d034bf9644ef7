package bench

import "errors"

// Wire is the Conn of the transport-floor target over raw TCP (CapWire): a
// connection to a sink server in the runner process on 127.0.0.1. It moves
// bytes only; its SQL methods return ErrNotSQL.
type Wire interface {
	// Send sends p as one message (an 8-byte length, then p) and waits for
	// the sink's 8-byte acknowledgement: the total payload bytes it has
	// received on this connection, which must equal the total sent. An
	// acknowledgement that differs is an error.
	Send(p []byte) error
	// RoundTrip writes p on the echo connection and reads len(p) bytes
	// back; they must equal p.
	RoundTrip(p []byte) error
}

// Poster is the Conn of the transport-floor target over HTTP/1.1
// (CapHTTP): a net/http client on one kept-alive connection to a net/http
// server in the runner process on 127.0.0.1. Its SQL methods return
// ErrNotSQL.
type Poster interface {
	// Post sends p as the body of one POST; the server drains the body and
	// answers 204 with the byte count it read, which must equal len(p).
	Post(p []byte) error
}

// ErrNotSQL is what the SQL methods of a transport-floor Conn return.
var ErrNotSQL = errors.New("not a SQL target: the transport floor (db=loopback) moves bytes only")
