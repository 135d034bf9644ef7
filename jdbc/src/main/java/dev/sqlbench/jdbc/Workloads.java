package dev.sqlbench.jdbc;

import java.util.ArrayList;
import java.util.List;

/** The catalogue of workloads this runner can run, by the Go catalogue's names. */
public final class Workloads {
    private static final List<Workload> ALL = build();

    private Workloads() {
    }

    private static List<Workload> build() {
        List<Workload> ws = new ArrayList<>(ClassicWorkloads.all());
        ws.addAll(SingleInsertWorkloads.all());
        ws.addAll(BulkInsertWorkloads.all());
        ws.addAll(TypedWorkloads.all());
        ws.addAll(PoolWorkloads.all());
        ws.addAll(ConnectWorkloads.all());
        ws.addAll(BatchWorkloads.all());
        ws.addAll(CancelWorkloads.all());
        return List.copyOf(ws);
    }

    /** Returns every workload. */
    public static List<Workload> all() {
        return ALL;
    }

    /** Returns the workload whose ID is name (as Go's Workload.ID), or throws. */
    public static Workload lookup(String name) throws ProtocolException {
        for (Workload w : ALL) {
            if (w.name().equals(name)) {
                return w;
            }
        }
        throw new ProtocolException("unknown workload \"" + name + "\"");
    }
}
