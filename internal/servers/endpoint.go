package servers

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/pgdsn"
)

// Endpoint is where and as whom a client connects to a server.
type Endpoint struct {
	// Net is "tcp" or "unix".
	Net string
	// Addr is "127.0.0.1:<port>" for tcp and the socket file's path for
	// unix. PostgreSQL clients want the socket's directory plus the port
	// instead: filepath.Dir(Addr) and Port (the file is <dir>/.s.PGSQL.<port>).
	Addr string
	// Port is the server's TCP port, for both networks.
	Port int
	// User, Password and Database are the bench credentials.
	User, Password, Database string
}

// Bench returns e as the driver-neutral endpoint targets connect to.
func (e Endpoint) Bench() bench.Endpoint {
	return bench.Endpoint{Net: e.Net, Addr: e.Addr, User: e.User, Password: e.Password, Database: e.Database}
}

// Endpoint returns the address and credentials for network "tcp" or "unix".
func (s *Server) Endpoint(network string) (Endpoint, error) {
	e := Endpoint{Net: network, Port: s.Port, User: s.User, Password: s.Password, Database: s.Database}
	switch network {
	case "tcp":
		e.Addr = net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	case "unix":
		e.Addr = s.Socket
	default:
		return Endpoint{}, fmt.Errorf("unknown network %q (valid: tcp, unix)", network)
	}
	return e, nil
}

// DSN returns a connection string for network "tcp" or "unix", or "" for any
// other network. MariaDB strings are in go-sql-driver/mysql form
// ("bench:PW@tcp(127.0.0.1:P)/bench", "bench:PW@unix(/dir/mysqld.sock)/bench");
// PostgreSQL strings are a URL for tcp
// ("postgres://bench:PW@127.0.0.1:P/bench?sslmode=disable") and keyword/value
// form for unix ("host=/dir port=P user=bench password=PW dbname=bench
// sslmode=disable"), both accepted by pgx and lib/pq.
func (s *Server) DSN(network string) string {
	e, err := s.Endpoint(network)
	if err != nil {
		return ""
	}
	switch s.Kind.Base() {
	case KindMariaDB, KindTiDB:
		c := mysql.NewConfig()
		c.User, c.Passwd, c.Net, c.Addr, c.DBName = e.User, e.Password, e.Net, e.Addr, e.Database
		return c.FormatDSN()
	case KindPostgres:
		if network == "tcp" {
			u := url.URL{
				Scheme:   "postgres",
				User:     url.UserPassword(e.User, e.Password),
				Host:     e.Addr,
				Path:     "/" + e.Database,
				RawQuery: "sslmode=disable",
			}
			return u.String()
		}
		return fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable",
			pgdsn.Quote(filepath.Dir(e.Addr)), e.Port, pgdsn.Quote(e.User), pgdsn.Quote(e.Password),
			pgdsn.Quote(e.Database))
	}
	return ""
}

// ConfigLines returns key/value pairs describing the server for a results
// file: <kind>-version, <kind>-profile (for a kind that takes one), then every variable in Vars as
// <kind>-<name with dashes>, sorted by name, and every seed setting as
// <kind>-seed-<option> (seedConfigLines), then all sorted by key. Keys are lowercase without
// spaces; values are on one line.
func (s *Server) ConfigLines() [][2]string {
	k := string(s.Kind)
	lines := [][2]string{{k + "-version", oneLine(s.Version)}}
	if s.Kind.Profiled() {
		lines = append(lines, [2]string{k + "-profile", string(s.Profile)})
	}
	names := make([]string, 0, len(s.Vars))
	for n := range s.Vars {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		key := k + "-" + configKey(n)
		if key == k+"-version" || key == k+"-profile" || n == "server_version" {
			continue // already the first lines
		}
		lines = append(lines, [2]string{key, oneLine(s.Vars[n])})
	}
	if s.Topology != "" {
		lines = append(lines, [2]string{k + "-topology", oneLine(s.Topology)})
	}
	if len(s.Seed) > 0 {
		// The seed lines go among the variables, by key (MariaDB's
		// variable names are lowercase: the variables' order is kept).
		lines = append(lines, seedConfigLines(k, s.Seed)...)
		slices.SortStableFunc(lines[2:], func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	}
	return lines
}

func configKey(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	return strings.NewReplacer("_", "-", " ", "-", "\t", "-", ".", "-").Replace(name)
}

func oneLine(v string) string { return strings.Join(strings.Fields(v), " ") }
