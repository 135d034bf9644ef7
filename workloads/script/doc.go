// Package script reads and runs sqlbench's script workloads: files in the
// format of pgbench's custom scripts (SQL statements ending in ';',
// \set name expression with pgbench's random functions, \sleep), their
// :variables bound as query parameters in each dialect's placeholder
// syntax, never spliced into the SQL text. One execution of a script is one
// operation; the statements run on any bench.Conn, in one of three query
// modes (simple, extended, prepared). See docs/scripts.md.
package script
