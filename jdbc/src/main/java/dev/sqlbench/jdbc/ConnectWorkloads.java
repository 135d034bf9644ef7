package dev.sqlbench.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

/**
 * The connect family, as in workloads/connect.go: a new connection of the
 * cell's target per operation (DriverManager.getConnection with the target's
 * properties, the session settings, SELECT 1 read and checked, then closed),
 * which holds the TLS handshake when the endpoint asks for TLS.
 */
public final class ConnectWorkloads {
    private ConnectWorkloads() {
    }

    /** Returns the family in the Go catalogue's order. */
    public static List<Workload> all() {
        return List.of(new Workload() {
            @Override
            public String name() {
                return "Connect";
            }

            @Override
            public Set<Db> only() {
                return Set.of(Db.MARIADB, Db.POSTGRES);
            }

            @Override
            public void setup(Env e) {
            }

            @Override
            public Run begin(Env e) {
                return new Run(i -> connectOnce(e));
            }

            @Override
            public void teardown(Env e) {
            }
        });
    }

    private static void connectOnce(Env e) throws Exception {
        try (Connection c = e.opener().open(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT 1")) {
            if (!r.next() || r.getLong(1) != 1) {
                throw new WrongResultException("connect: SELECT 1 did not return 1");
            }
        }
    }
}
