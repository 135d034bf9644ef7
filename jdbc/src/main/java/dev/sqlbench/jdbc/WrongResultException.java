package dev.sqlbench.jdbc;

/** A query returned something other than what the workload wrote: the cell fails. */
public final class WrongResultException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a one-line description of the difference. */
    public WrongResultException(String message) {
        super(message);
    }
}
