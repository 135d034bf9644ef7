package dev.sqlbench.jdbc;

/** A request line that does not follow the runner protocol. */
public final class ProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a one-line reason. */
    public ProtocolException(String message) {
        super(message);
    }
}
