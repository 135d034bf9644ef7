package workloads

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The Sqinn-Go complex test: profiles, devices and locations with foreign
// keys and indexes, every key a formatted string ("profile_3",
// "device_3_42", "location_3_42_7"), every flag the index's parity.

func sqinnComplexSchema(d bench.Dialect) []string {
	v := sqinnVarchar(d)
	b, _ := sqinnTypes(d)
	engine := ""
	if d.DB == bench.MariaDB {
		engine = " ENGINE=InnoDB"
	}
	p, dv, l := d.Table("profiles"), d.Table("devices"), d.Table("locations")
	idx := func(table, col string) string {
		return "CREATE INDEX " + table + "_" + col + " ON " + table + " (" + col + ")"
	}
	return []string{
		"CREATE TABLE " + p + " (id " + v + " PRIMARY KEY NOT NULL, name " + v + " NOT NULL, active " + b +
			" NOT NULL)" + engine,
		idx(p, "name"), idx(p, "active"),
		"CREATE TABLE " + dv + " (id " + v + " PRIMARY KEY NOT NULL, profileId " + v + " NOT NULL, name " + v +
			" NOT NULL, active " + b + " NOT NULL, " +
			"FOREIGN KEY (profileId) REFERENCES " + p + " (id))" + engine,
		idx(dv, "profileId"), idx(dv, "name"), idx(dv, "active"),
		"CREATE TABLE " + l + " (id " + v + " PRIMARY KEY NOT NULL, deviceId " + v + " NOT NULL, name " + v +
			" NOT NULL, active " + b + " NOT NULL, " +
			"FOREIGN KEY (deviceId) REFERENCES " + dv + " (id))" + engine,
		idx(l, "deviceId"), idx(l, "name"), idx(l, "active"),
	}
}

var sqinnComplexTables = []string{"locations", "devices", "profiles"}

func sqinnComplexInsertSQL(d bench.Dialect, base string) string {
	cols := map[string]string{"profiles": "id, name, active", "devices": "id, profileId, name, active",
		"locations": "id, deviceId, name, active"}[base]
	n := strings.Count(cols, ",") + 1
	ps := make([]string, n)
	for i := range ps {
		ps[i] = d.Param(i + 1)
	}
	return "INSERT INTO " + d.Table(base) + " (" + cols + ") VALUES (" + strings.Join(ps, ", ") + ")"
}

func sqinnComplexQuery(d bench.Dialect) string {
	l, dv, p := d.Table("locations"), d.Table("devices"), d.Table("profiles")
	return "SELECT l.id, l.deviceId, l.name, l.active, dv.id, dv.profileId, dv.name, dv.active, p.id, p.name, " +
		"p.active FROM " +
		l + " l LEFT JOIN " + dv + " dv ON dv.id = l.deviceId LEFT JOIN " + p + " p ON p.id = dv.profileId " +
		"WHERE l.active = " + d.Param(1) + " OR l.active = " + d.Param(2) +
		" ORDER BY l.name, l.id, dv.name, dv.id, p.name, p.id"
}

func sqinnComplex() []bench.Workload {
	return []bench.Workload{
		{
			Name: "SqinnComplexInsert", Whole: true, Ops: sqinnLocations, Unit: "locations", Smoke: sqinnComplexSmoke,
			Describe: func(d bench.Dialect) string {
				return "200 profiles, then 20,000 devices, then 200,000 locations (`" +
					sqinnComplexInsertSQL(d, "locations") +
					"`), each table in a transaction of its own through one prepared statement (crawshaw: bound with " +
					"its typed calls; sqinn: all its rows in one Exec request), keys and names formatted in the " +
					"timed loop (a parent's key once for its children); " +
					"one operation is one location (with its device every 10 and profile every 1,000), commits " +
					"timed; tables recreated before each run"
			},
			Setup: func(bench.Env) error { return nil }, Teardown: sqinnDropper(sqinnComplexTables...),
			Begin: sqinnHeld(sqinnComplexInsert),
		},
		{
			Name: "SqinnComplexQuery", Ops: 5, Unit: "queries", ScaledData: true, Smoke: sqinnComplexSmoke,
			Describe: func(d bench.Dialect) string {
				return "`" + sqinnComplexQuery(d) + "` with (0, 1), reading all 200,000 locations (times --scale) " +
					"with their device and profile (sqinn: one Query request), each row scanned into sql.Null types " +
					"and checked in the timed loop as published (each text at least 5 bytes, each flag at least 0)" +
					sqinnExactNote
			},
			Setup: func(e bench.Env) error {
				// The run's own insert fills the tables, untimed.
				fill := e
				fill.Warm, fill.N = 0, e.Scaled(sqinnProfiles)*sqinnDevicesPerProfile*sqinnLocationsPerDevice
				r, err := sqinnComplexInsert(fill)
				if err != nil {
					return err
				}
				if err := r.Batch(0, fill.N); err != nil {
					return fmt.Errorf("fill: %w", err)
				}
				return nil
			},
			Teardown: sqinnDropper(sqinnComplexTables...),
			Begin: sqinnHeld(func(e bench.Env) (bench.Run, error) {
				c, q := e.Conn, sqinnComplexQuery(e.Dialect)
				n := e.Scaled(sqinnProfiles) * sqinnDevicesPerProfile * sqinnLocationsPerDevice
				r := newSqinnComplexReader(n, false)
				// The published check in the timed read; every row checked
				// exactly once, after the run.
				return bench.Run{Op: func(int) error { return r.read(c, q) },
					End: func() error { return newSqinnComplexReader(n, true).read(c, q) }}, nil
			}),
		},
	}
}

// Keys and names of the complex test's rows, by index from 0: location L
// belongs to device L/10, device D to profile D/100.
func sqinnProfileKey(p int) (id, name string) {
	return sqinnProfileID(p), fmt.Sprintf("Profile %d", p)
}

func sqinnProfileID(p int) string { return fmt.Sprintf("profile_%d", p) }

func sqinnDeviceKey(dev int) (id, name string) {
	p, d := dev/sqinnDevicesPerProfile, dev%sqinnDevicesPerProfile
	return sqinnDeviceID(dev), fmt.Sprintf("Device %d %d", p, d)
}

func sqinnDeviceID(dev int) string {
	return fmt.Sprintf("device_%d_%d", dev/sqinnDevicesPerProfile, dev%sqinnDevicesPerProfile)
}

func sqinnLocationKey(loc int) (id, name string) {
	dev, l := loc/sqinnLocationsPerDevice, loc%sqinnLocationsPerDevice
	p, d := dev/sqinnDevicesPerProfile, dev%sqinnDevicesPerProfile
	return fmt.Sprintf("location_%d_%d_%d", p, d, l), fmt.Sprintf("Location %d %d %d", p, d, l)
}

// sqinnParent returns a function of a parent's index (a profile's, a
// device's) that formats its id with format once and returns it again for
// the children that follow it.
func sqinnParent(format func(int) string) func(int) string {
	last, id := -1, ""
	return func(k int) string {
		if k != last {
			last, id = k, format(k)
		}
		return id
	}
}

// sqinnComplexInsert begins a run whose Batch(first, n) inserts locations
// [first, first+n): first the profiles and devices they need that are not
// in yet, each table in a transaction of its own, as the published program
// does. The tables are recreated first.
func sqinnComplexInsert(e bench.Env) (bench.Run, error) {
	if err := recreateTables(e, sqinnComplexTables, sqinnComplexSchema(e.Dialect)...); err != nil {
		return bench.Run{}, err
	}
	d := e.Dialect
	profilesIn, devicesIn := 0, 0
	t := &suiteTxInsert{done: true}
	rx, whole := e.Conn.(bench.RowsExecer)
	// table inserts rows [from, to) of base in a transaction of its own: the
	// values of row k are add(vals, k). Where the API runs a statement for
	// many rows in one call (sqinn's Exec, as the published sqinn program
	// inserts) all the rows go in one call; elsewhere one prepared
	// statement runs per row.
	table := func(base string, nparams, from, to int, add func(vals []any, k int) []any,
		bind func(b bench.ParamBinder, k int) error) error {
		q := sqinnComplexInsertSQL(d, base)
		if whole {
			if err := t.begin(e.Conn); err != nil {
				return err
			}
			values := make([]any, 0, (to-from)*nparams)
			for k := from; k < to; k++ {
				values = add(values, k)
			}
			if err := rx.ExecRows(q, nparams, values); err != nil {
				return fmt.Errorf("insert into %s: %w", d.Table(base), err)
			}
			return t.commit()
		}
		if err := t.begin(e.Conn, q); err != nil {
			return err
		}
		// Where the statement binds with typed calls (crawshaw, as the
		// published crawshaw program binds) each row goes through them;
		// elsewhere its values go in one Exec (mattn's stmt.Exec).
		if typed, ok := t.stmts[0].(bench.BoundExecer); ok {
			for k := from; k < to; k++ {
				if err := bind(typed, k); err != nil {
					return fmt.Errorf("insert into %s: %w", d.Table(base), err)
				}
				if err := typed.ExecBound(); err != nil {
					return fmt.Errorf("insert into %s: %w", d.Table(base), err)
				}
			}
			return t.commit()
		}
		args := make([]any, 0, nparams)
		for k := from; k < to; k++ {
			if err := t.stmts[0].Exec(add(args[:0], k)...); err != nil {
				return fmt.Errorf("insert into %s: %w", d.Table(base), err)
			}
		}
		return t.commit()
	}
	perProfile := sqinnDevicesPerProfile * sqinnLocationsPerDevice
	return bench.Run{
		Batch: func(first, n int) error {
			end := first + n
			// A device's profile id and a location's device id, formatted
			// once per parent, as the published programs format them in
			// their outer loops.
			profileID, deviceID := sqinnParent(sqinnProfileID), sqinnParent(sqinnDeviceID)
			profiles := (end + perProfile - 1) / perProfile
			devices := (end + sqinnLocationsPerDevice - 1) / sqinnLocationsPerDevice
			// The published programs' values: formatted keys and names, the
			// active flags as Go ints.
			err := table("profiles", 3, profilesIn, profiles, func(vals []any, p int) []any {
				id, name := sqinnProfileKey(p)
				return append(vals, id, name, p%2)
			}, func(b bench.ParamBinder, p int) error {
				id, name := sqinnProfileKey(p)
				return bindAll(b.BindText(1, id), b.BindText(2, name), b.BindInt64(3, int64(p%2)), nil)
			})
			if err != nil {
				return err
			}
			profilesIn = profiles
			err = table("devices", 4, devicesIn, devices, func(vals []any, dev int) []any {
				id, name := sqinnDeviceKey(dev)
				pid := profileID(dev / sqinnDevicesPerProfile)
				return append(vals, id, pid, name, dev%sqinnDevicesPerProfile%2)
			}, func(b bench.ParamBinder, dev int) error {
				id, name := sqinnDeviceKey(dev)
				pid := profileID(dev / sqinnDevicesPerProfile)
				return bindAll(b.BindText(1, id), b.BindText(2, pid), b.BindText(3, name),
					b.BindInt64(4, int64(dev%sqinnDevicesPerProfile%2)))
			})
			if err != nil {
				return err
			}
			devicesIn = devices
			return table("locations", 4, first, end, func(vals []any, loc int) []any {
				id, name := sqinnLocationKey(loc)
				did := deviceID(loc / sqinnLocationsPerDevice)
				return append(vals, id, did, name, loc%sqinnLocationsPerDevice%2)
			}, func(b bench.ParamBinder, loc int) error {
				id, name := sqinnLocationKey(loc)
				did := deviceID(loc / sqinnLocationsPerDevice)
				return bindAll(b.BindText(1, id), b.BindText(2, did), b.BindText(3, name),
					b.BindInt64(4, int64(loc%sqinnLocationsPerDevice%2)))
			})
		},
		End: func() error {
			if !t.done {
				t.abort()
				return nil
			}
			r := newSqinnComplexReader(e.Warm+e.N, true)
			if err := r.read(e.Conn, sqinnComplexQuery(d)); err != nil {
				return fmt.Errorf("verify: %w", err)
			}
			return nil
		},
	}, nil
}

// sqinnComplexReader checks one read of the join: every location exactly
// once, with its device and profile, against the values written, computed
// from the location's key as each row is checked (no table of them is
// held, which would cost the garbage collector's marking during the timed
// read; the published programs hold none). The rows come in the order of the names under the database's
// collation, which differs between databases, so each row is found by its
// key (parsed, not looked up) rather than by its position. That is the
// exact check (an insert's read back, a timed read run's End); the timed
// reads check each row as the published programs do (plausible) and the
// count. The columns scan into the published mattn program's
// sql.NullString and sql.NullInt32.
type sqinnComplexReader struct {
	locations         int
	exact             bool
	seen              []bool
	buf               []byte
	n                 int
	lid, ldev, lname  sql.NullString
	did, dprof, dname sql.NullString
	pid, pname        sql.NullString
	lact, dact, pact  sql.NullInt32
	dest              []any
	rowFn             bench.RowFunc
	nextFn            func() error
}

func newSqinnComplexReader(locations int, exact bool) *sqinnComplexReader {
	r := &sqinnComplexReader{locations: locations, exact: exact}
	if exact {
		r.seen = make([]bool, locations)
	}
	r.dest = []any{&r.lid, &r.ldev, &r.lname, &r.lact, &r.did, &r.dprof, &r.dname, &r.dact, &r.pid, &r.pname, &r.pact}
	r.rowFn, r.nextFn = r.row, r.next // bound once: a method value allocates
	return r
}

// read runs the join once on c with (0, 1): one whole-result call where
// c's API has one (sqinn's Query, as the published sqinn program reads),
// else a query whose rows are scanned one by one.
func (r *sqinnComplexReader) read(c bench.Conn, q string) error {
	if wq, ok := c.(bench.WholeQuerier); ok {
		return r.check(wq.QueryWhole(q, r.dest, r.nextFn, 0, 1))
	}
	return r.check(bench.QueryCached(c, q, r.rowFn, 0, 1)) // crawshaw: conn.Prep, as published
}

// sqinnKeyIs reports whether s is prefix followed by nums in decimal,
// joined by sep, formatting them in buf: no allocation.
func sqinnKeyIs(s string, buf *[]byte, prefix string, sep byte, nums ...int) bool {
	b := append((*buf)[:0], prefix...)
	for i, n := range nums {
		if i > 0 {
			b = append(b, sep)
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	*buf = b
	return s == string(b)
}

// sqinnLocationIndex parses "location_P_D_L" into its index.
func sqinnLocationIndex(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "location_")
	if !ok {
		return 0, false
	}
	var v [3]int
	for k := range v {
		end := strings.IndexByte(rest, '_')
		if k == 2 {
			end = len(rest)
		}
		if end < 0 {
			return 0, false
		}
		x, err := strconv.Atoi(rest[:end])
		if err != nil {
			return 0, false
		}
		v[k] = x
		rest = rest[min(end+1, len(rest)):]
	}
	if v[1] >= sqinnDevicesPerProfile || v[2] >= sqinnLocationsPerDevice {
		return 0, false
	}
	return (v[0]*sqinnDevicesPerProfile+v[1])*sqinnLocationsPerDevice + v[2], true
}

func (r *sqinnComplexReader) row(row bench.Row) error {
	if err := sqinnScan(row, r.dest); err != nil {
		return err
	}
	return r.next()
}

// next checks the row just stored in the destinations.
func (r *sqinnComplexReader) next() error {
	r.n++
	if !r.exact {
		return r.plausible()
	}
	for _, v := range [...]bool{r.lid.Valid, r.ldev.Valid, r.lname.Valid, r.lact.Valid, r.did.Valid, r.dprof.Valid,
		r.dname.Valid, r.dact.Valid, r.pid.Valid, r.pname.Valid, r.pact.Valid} {
		if !v {
			return fmt.Errorf("row %d (location %q): a column is NULL", r.n, r.lid.String)
		}
	}
	loc, ok := sqinnLocationIndex(r.lid.String)
	if !ok || loc >= r.locations || r.seen[loc] {
		return fmt.Errorf("row %d: location %q unknown or read twice", r.n, r.lid.String)
	}
	r.seen[loc] = true
	dev := loc / sqinnLocationsPerDevice
	p, d, l := dev/sqinnDevicesPerProfile, dev%sqinnDevicesPerProfile, loc%sqinnLocationsPerDevice
	b := &r.buf
	switch {
	case !sqinnKeyIs(r.lid.String, b, "location_", '_', p, d, l) ||
		!sqinnKeyIs(r.lname.String, b, "Location ", ' ', p, d, l) ||
		!sqinnKeyIs(r.ldev.String, b, "device_", '_', p, d) || r.lact.Int32 != int32(l%2):
		return fmt.Errorf("wrong location %s: (%q, %q, %d)", r.lid.String, r.ldev.String, r.lname.String, r.lact.Int32)
	case !sqinnKeyIs(r.did.String, b, "device_", '_', p, d) || !sqinnKeyIs(r.dname.String, b, "Device ", ' ', p, d) ||
		!sqinnKeyIs(r.dprof.String, b, "profile_", '_', p) || r.dact.Int32 != int32(d%2):
		return fmt.Errorf("wrong device %s of location %s: (%q, %q, %d)", r.did.String, r.lid.String, r.dprof.String,
			r.dname.String, r.dact.Int32)
	case !sqinnKeyIs(r.pid.String, b, "profile_", '_', p) || !sqinnKeyIs(r.pname.String, b, "Profile ", ' ', p) ||
		r.pact.Int32 != int32(p%2):
		return fmt.Errorf("wrong profile %s of location %s: (%q, %d)", r.pid.String, r.lid.String, r.pname.String,
			r.pact.Int32)
	}
	return nil
}

// plausible is the published programs' check of a row in their timed
// loop: every text at least 5 bytes, every active flag at least 0.
func (r *sqinnComplexReader) plausible() error {
	for _, s := range [...]string{r.lid.String, r.ldev.String, r.lname.String, r.did.String, r.dprof.String,
		r.dname.String, r.pid.String, r.pname.String} {
		if len(s) < 5 {
			return fmt.Errorf("wrong row %d (location %q)", r.n, r.lid.String)
		}
	}
	if r.lact.Int32 < 0 || r.dact.Int32 < 0 || r.pact.Int32 < 0 {
		return fmt.Errorf("wrong row %d (location %q)", r.n, r.lid.String)
	}
	return nil
}

// check ends one read: it passes err through or checks the count.
func (r *sqinnComplexReader) check(err error) error {
	n := r.n
	r.n = 0
	clear(r.seen)
	if err != nil {
		return err
	}
	if n != r.locations {
		return fmt.Errorf("read %d locations, want %d", n, r.locations)
	}
	return nil
}
