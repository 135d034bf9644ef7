package dev.sqlbench.jdbc;

/** A database family; its key is the db= element of result names. */
public enum Db {
    /** SQLite, through a file. */
    SQLITE("sqlite"),
    /** MariaDB (and MySQL). */
    MARIADB("mariadb"),
    /** PostgreSQL. */
    POSTGRES("postgres");

    /** The name in requests and result names. */
    public final String key;

    Db(String key) {
        this.key = key;
    }

    /** Returns the family called key, or throws with the valid names. */
    public static Db parse(String key) throws ProtocolException {
        for (Db d : values()) {
            if (d.key.equals(key)) {
                return d;
            }
        }
        throw new ProtocolException("unknown database \"" + key + "\" (valid: sqlite, mariadb, postgres)");
    }
}
