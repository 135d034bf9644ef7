package dev.sqlbench.jdbc;

/**
 * A workload set up on an open connection, kept between runs. It holds no
 * state of any run: each slice of a run is answered on its own (protocol 3),
 * and the orchestrator sums them.
 */
final class Cell {
    final Env env;
    final Workload workload;

    Cell(Env env, Workload workload) {
        this.env = env;
        this.workload = workload;
    }
}
