package dev.sqlbench.jdbc;

/**
 * A problem in a script: with a file and line, its message reads
 * FILE:LINE: MESSAGE, as Go's script.Error.
 */
public final class ScriptException extends Exception {
    private static final long serialVersionUID = 1L;

    /** A problem not yet placed in a file. */
    public ScriptException(String msg) {
        super(msg);
    }

    /** A problem at line of file. */
    public ScriptException(String file, int line, String msg) {
        super(file + ":" + line + ": " + msg);
    }
}
