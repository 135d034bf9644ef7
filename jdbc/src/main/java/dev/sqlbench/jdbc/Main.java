package dev.sqlbench.jdbc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The JDBC runner process: serves the sqlbench runner protocol on stdin and
 * stdout for the JDBC targets. sqlbench builds it, caches the jar and starts
 * it; it is not meant to be run by hand.
 */
public final class Main {
    private Main() {
    }

    /** Serves the protocol until stdin ends; exits 1 if the output breaks. */
    public static void main(String[] args) {
        ignoreInterrupt();
        PrintStream out = new PrintStream(
                new java.io.BufferedOutputStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), 1 << 16),
                false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            new Server(in, out, System.err, JitWarmup.fromProperties()).serve();
        } catch (IOException e) {
            System.err.println("sqlbench-jdbc: " + e.getMessage());
            System.exit(1);
        }
        System.exit(0); // drivers may leave non-daemon threads behind
    }

    /**
     * The orchestrator owns the runner's lifetime (it closes stdin or kills
     * the process group); a Ctrl-C in the terminal is its to handle.
     */
    @SuppressWarnings("restriction")
    private static void ignoreInterrupt() {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_IGN);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // no SIGINT here: nothing to ignore
        }
    }
}
