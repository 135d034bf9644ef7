package dev.sqlbench.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.Properties;

/**
 * What the runner is built from and runs on, for configuration lines: the
 * driver coordinates pinned in pom.xml (filtered into a resource at build
 * time), the JVM and its flags.
 */
public final class Versions {
    private static final String RESOURCE = "/sqlbench-jdbc.properties";

    private Versions() {
    }

    /** Returns "group:artifact version" of target's driver as pinned in the pom. */
    public static String module(Target t) {
        Properties p = new Properties();
        try (InputStream in = Versions.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "(unknown version: " + e.getMessage() + ")";
        }
        return p.getProperty(t.name, "(unknown version)");
    }

    /** Returns the JVM's name and version, e.g. "OpenJDK 64-Bit Server VM 17.0.15+6". */
    public static String jvm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version");
    }

    /** Returns the flags the JVM was started with, space-separated, or "none". */
    public static String jvmFlags() {
        String s = String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments());
        return s.isEmpty() ? "none" : s;
    }
}
