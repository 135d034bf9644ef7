package dev.sqlbench.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A JDBC target: one driver, its database, and how it connects to an
 * endpoint. Credentials go in connection properties, never in the URL, so
 * that no URL a driver puts in an error carries the password.
 */
public enum Target {
    /**
     * MySQL Connector/J on MariaDB, tcp and the unix socket (junixsocket's socket factory); LOAD DATA LOCAL
     * (allowLoadLocalInfile), batches, and batches rewritten into multi-row INSERTs (rewriteBatchedStatements);
     * a query's cancel (KILL QUERY on another connection).
     */
    MYSQL("jdbc-mysql", Db.MARIADB, true, Cap.LOAD, Cap.BATCH, Cap.REWRITE, Cap.CONTEXT),
    /**
     * MariaDB Connector/J, tcp and the unix socket (localSocket, through JNA); LOAD DATA LOCAL (allowLocalInfile),
     * batches; a query's cancel (KILL QUERY on another connection).
     */
    MARIADB("jdbc-mariadb", Db.MARIADB, true, Cap.LOAD, Cap.BATCH, Cap.CONTEXT),
    /**
     * pgjdbc on PostgreSQL, tcp and the unix socket (junixsocket's socket factory); COPY (CopyManager), batches,
     * and batches rewritten into multi-row INSERTs (reWriteBatchedInserts); a query's cancel (a CancelRequest on a
     * side connection).
     */
    POSTGRES("jdbc-postgres", Db.POSTGRES, true, Cap.COPY, Cap.BATCH, Cap.REWRITE, Cap.CONTEXT),
    /** xerial sqlite-jdbc on a SQLite file; batches. */
    SQLITE("jdbc-sqlite", Db.SQLITE, false, Cap.BATCH),
    /**
     * pgjdbc under HikariCP, the pool family only: its connections are pgjdbc's, opened as POSTGRES's, and
     * PoolWorkloads shares them between threads through a HikariDataSource of the workload's pool size.
     */
    POSTGRES_HIKARI("jdbc-pg-hikari", Db.POSTGRES, true, Cap.POOL),
    /**
     * MariaDB Connector/J under HikariCP, the pool family only: its connections are MariaDB Connector/J's, opened
     * as MARIADB's, shared between threads through a HikariDataSource as POSTGRES_HIKARI's.
     */
    MARIADB_HIKARI("jdbc-mariadb-hikari", Db.MARIADB, true, Cap.POOL);

    /** The target's name on the command line and in requests. */
    public final String name;
    /** The database it speaks. */
    public final Db db;
    /** Whether it can connect over a unix socket. */
    public final boolean unix;
    /** The capabilities it declares in the hello reply. */
    public final Set<Cap> caps;

    Target(String name, Db db, boolean unix, Cap... caps) {
        this.name = name;
        this.db = db;
        this.unix = unix;
        this.caps = caps.length == 0 ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(List.of(caps)));
    }

    /** Returns the capability names, sorted and comma-separated, as the hello reply gives them ("" for none). */
    public String capList() {
        return caps.stream().map(c -> c.key).sorted().collect(Collectors.joining(","));
    }

    /** Returns the target called name, or throws. */
    public static Target lookup(String name) throws ProtocolException {
        for (Target t : values()) {
            if (t.name.equals(name)) {
                return t;
            }
        }
        throw new ProtocolException("target \"" + name + "\" is not linked into this runner");
    }

    /**
     * Opens a connection: to the SQLite file dsn, or to endpoint e. Every
     * driver runs with its defaults except TLS, which is off as it is for the
     * Go drivers unless the endpoint asks for it (tls=require: encrypted,
     * unverified; tls=verify: verified against its CA where the driver takes
     * a PEM file: pgjdbc's sslrootcert, MariaDB Connector/J's serverSslCert;
     * MySQL Connector/J wants a Java key store, so it encrypts unverified).
     */
    public Connection open(String dsn, Endpoint e) throws SQLException {
        return open(dsn, e, new Properties());
    }

    /** Opens a connection with extra driver properties (such as rewriteBatchedStatements). */
    public Connection open(String dsn, Endpoint e, Properties extra) throws SQLException {
        Properties p = new Properties();
        boolean tls = db != Db.SQLITE && !e.tls().isEmpty();
        if (db != Db.SQLITE) {
            p.setProperty("user", e.user());
            p.setProperty("password", e.password());
            if (!e.net().equals("tcp") && !(e.net().equals("unix") && unix)) {
                throw new SQLException(name + " cannot connect over " + e.net() + " (it runs over tcp"
                        + (unix ? " and unix" : " only") + ")");
            }
            if (tls && !e.net().equals("tcp")) {
                throw new SQLException("TLS is for tcp endpoints only");
            }
        }
        String url = switch (this) {
            case MYSQL -> {
                p.setProperty("sslMode", tls ? "REQUIRED" : "DISABLED");
                p.setProperty("allowLoadLocalInfile", "true"); // the load path streams from the runner, never a file
                p.setProperty("allowPublicKeyRetrieval", "true");
                if (e.net().equals("unix")) {
                    p.setProperty("socketFactory", "org.newsclub.net.mysql.AFUNIXDatabaseSocketFactoryCJ");
                    p.setProperty("junixsocket.file", e.addr());
                    yield "jdbc:mysql://localhost/" + e.database();
                }
                yield "jdbc:mysql://" + hostPort(e) + "/" + e.database();
            }
            case MARIADB, MARIADB_HIKARI -> {
                p.setProperty("sslMode", !tls ? "disable" : e.verify() ? "verify-full" : "trust");
                if (tls && e.verify() && !e.ca().isEmpty()) {
                    p.setProperty("serverSslCert", e.ca());
                }
                p.setProperty("allowLocalInfile", "true"); // the load path streams from the runner, never a file
                if (e.net().equals("unix")) {
                    p.setProperty("localSocket", e.addr());
                    yield "jdbc:mariadb://localhost/" + e.database();
                }
                yield "jdbc:mariadb://" + hostPort(e) + "/" + e.database();
            }
            case POSTGRES, POSTGRES_HIKARI -> {
                p.setProperty("sslmode", !tls ? "disable" : e.verify() ? "verify-full" : "require");
                if (tls && e.verify() && !e.ca().isEmpty()) {
                    p.setProperty("sslrootcert", e.ca());
                }
                if (e.net().equals("unix")) {
                    p.setProperty("socketFactory", "org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg");
                    p.setProperty("socketFactoryArg", e.addr());
                    yield "jdbc:postgresql://localhost/" + e.database();
                }
                yield "jdbc:postgresql://" + hostPort(e) + "/" + e.database();
            }
            case SQLITE -> "jdbc:sqlite:" + dsn;
        };
        p.putAll(extra);
        return DriverManager.getConnection(url, p);
    }

    private static String hostPort(Endpoint e) {
        String h = e.host();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + e.port();
    }
}
