package dev.sqlbench.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The pool family, the twin of Go's workloads/pool.go: N threads share one
 * HikariCP pool (HikariDataSource, maximumPoolSize = the workload's pool
 * size, HikariCP's other settings at their defaults) and each runs the point
 * query as a Java application does: getConnection, prepareStatement,
 * executeQuery, the row checked, everything closed (the connection back to
 * the pool). The pool is the cell's, opened at setup and closed at
 * teardown; its connections are the target's own (pgjdbc for
 * jdbc-pg-hikari, MariaDB Connector/J for jdbc-mariadb-hikari, opened as the
 * plain target opens them, session settings applied), handed to HikariCP
 * as its DataSource. The wait for a connection is HikariCP's own metric:
 * the time of every getConnection, recorded through its metrics tracker
 * (IMetricsTracker.recordConnectionAcquiredNanos), reported as
 * acquire-ns/op; HikariCP counts no waits, so there is no pool-waits/op.
 */
final class PoolWorkloads {
    static final int ROWS = 1000;
    private static final int[] SIZES = {4, 64};
    private static final int[] CLIENTS = {1, 4, 16, 64};

    private PoolWorkloads() {
    }

    static List<Workload> all() {
        List<Workload> ws = new ArrayList<>();
        for (int size : SIZES) {
            for (int n : CLIENTS) {
                ws.add(new PoolQuery(size, n));
            }
        }
        return ws;
    }

    /** Row id's name, as Go's poolName. */
    static String rowName(long id) {
        return "pool-row-" + id;
    }

    /** The id operation i reads, as Go's poolID. */
    static long id(int i) {
        return (long) i * 7919 % ROWS;
    }

    /** The point query. */
    static String query(Dialect d) {
        return "SELECT id, name FROM " + d.table("pool") + " WHERE id = ?";
    }

    /** PoolQuery/pool=P/clients=N. */
    static final class PoolQuery implements Workload {
        private final int size;
        private final int clients;
        /** The open pools, by the cell's scope: a cell's pool lives from its setup to its teardown. */
        private final Map<String, Pool> pools = new HashMap<>();

        PoolQuery(int size, int clients) {
            this.size = size;
            this.clients = clients;
        }

        @Override
        public String name() {
            return "PoolQuery/pool=" + size + "/clients=" + clients;
        }

        @Override
        public Set<Db> only() {
            return Set.of(Db.MARIADB, Db.POSTGRES);
        }

        @Override
        public void setup(Env e) throws Exception {
            String t = e.dialect().table("pool");
            try (Statement s = e.conn().createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + t);
                s.execute("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY NOT NULL, name VARCHAR(32) NOT NULL)");
                for (long first = 0; first < ROWS; first += 100) {
                    StringBuilder b = new StringBuilder("INSERT INTO " + t + " (id, name) VALUES ");
                    for (long id = first; id < first + 100; id++) {
                        b.append(id > first ? ", " : "").append('(').append(id).append(", '")
                                .append(rowName(id)).append("')");
                    }
                    s.execute(b.toString());
                }
            }
            Pool old = pools.put(e.dialect().scope(), new Pool(e.opener(), size));
            if (old != null) {
                old.ds.close();
            }
        }

        @Override
        public Run begin(Env e) throws Exception {
            Pool p = pools.get(e.dialect().scope());
            if (p == null) {
                throw new IllegalStateException("no pool: the cell was not set up");
            }
            String q = query(e.dialect());
            String[] names = new String[ROWS];
            for (int id = 0; id < ROWS; id++) {
                names[id] = rowName(id);
            }
            LongAdder done = new LongAdder();
            long[] base = new long[1];
            List<Op> ops = new ArrayList<>();
            for (int k = 0; k < clients; k++) {
                ops.add(i -> {
                    long want = id(i);
                    try (Connection c = p.ds.getConnection(); PreparedStatement ps = c.prepareStatement(q)) {
                        ps.setLong(1, want);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (!rs.next()) {
                                throw new WrongResultException("no row for id " + want);
                            }
                            long got = rs.getLong(1);
                            String nm = rs.getString(2);
                            if (got != want || !names[(int) want].equals(nm)) {
                                throw new WrongResultException("wrong row (" + got + ", \"" + nm + "\"), want (" + want
                                        + ", \"" + names[(int) want] + "\")");
                            }
                        }
                    }
                    done.increment();
                });
            }
            End start = () -> {
                base[0] = p.acquireNanos.sum();
                done.reset();
            };
            return new Run(null, ops, null, null, () -> { }, 0, null, 0,
                    () -> " " + ResultLine.number((double) (p.acquireNanos.sum() - base[0]) / Math.max(1, done.sum()))
                            + " acquire-ns/op",
                    start);
        }

        @Override
        public void teardown(Env e) throws Exception {
            Pool p = pools.remove(e.dialect().scope());
            if (p != null) {
                p.ds.close();
            }
            try (Statement s = e.conn().createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + e.dialect().table("pool"));
            }
        }
    }

    /** A cell's HikariCP pool and the acquire time its metrics tracker has recorded. */
    static final class Pool {
        final HikariDataSource ds;
        final LongAdder acquireNanos = new LongAdder();

        Pool(Env.Opener opener, int size) {
            HikariConfig cfg = new HikariConfig();
            cfg.setDataSource(new OpenerDataSource(opener));
            cfg.setMaximumPoolSize(size);
            cfg.setPoolName("sqlbench-pool-" + size);
            cfg.setMetricsTrackerFactory((poolName, stats) -> new IMetricsTracker() {
                @Override
                public void recordConnectionAcquiredNanos(long elapsedAcquiredNanos) {
                    acquireNanos.add(elapsedAcquiredNanos);
                }
            });
            ds = new HikariDataSource(cfg);
        }
    }

    /** The target's own connections as a DataSource, the form HikariCP takes a driver in. */
    static final class OpenerDataSource implements DataSource {
        private final Env.Opener opener;

        OpenerDataSource(Env.Opener opener) {
            this.opener = opener;
        }

        @Override
        public Connection getConnection() throws java.sql.SQLException {
            try {
                return opener.open();
            } catch (java.sql.SQLException e) {
                throw e;
            } catch (Exception e) {
                throw new java.sql.SQLException(e.getMessage(), e);
            }
        }

        @Override
        public Connection getConnection(String user, String password) throws java.sql.SQLException {
            throw new SQLFeatureNotSupportedException("the target's credentials are its endpoint's");
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws java.sql.SQLException {
            throw new java.sql.SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
