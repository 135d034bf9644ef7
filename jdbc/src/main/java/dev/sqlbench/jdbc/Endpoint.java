package dev.sqlbench.jdbc;

/**
 * A database server reached over one transport, as the orchestrator sends it:
 * the JDBC twin of Go's bench.Endpoint. Its string form never shows the
 * password.
 *
 * @param net "tcp" or "unix"
 * @param addr "host:port" for tcp, the socket file's path for unix
 * @param user the user to log in as
 * @param password the password, never printed
 * @param database the database to use
 * @param tls "" (plain), "require" (encrypted, unverified) or "verify" (encrypted, the server's
 *     certificate and host verified against ca), as Go's bench.TLSMode
 * @param ca the PEM file of the certificates "verify" trusts, or ""
 */
public record Endpoint(String net, String addr, String user, String password, String database, String tls,
        String ca) {

    /** An endpoint without TLS. */
    public Endpoint(String net, String addr, String user, String password, String database) {
        this(net, addr, user, password, database, "", "");
    }

    /** Reports whether the connection is to be verified against the CA (tls=verify). */
    public boolean verify() {
        return tls.equals("verify");
    }

    /** Returns the host of a tcp address (without IPv6 brackets). */
    public String host() {
        int i = addr.lastIndexOf(':');
        String h = i < 0 ? addr : addr.substring(0, i);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    /** Returns the port of a tcp address, or -1 when it has none. */
    public int port() {
        int i = addr.lastIndexOf(':');
        if (i < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(addr.substring(i + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public String toString() {
        return net + "(" + addr + ") as " + user + " on " + database;
    }
}
