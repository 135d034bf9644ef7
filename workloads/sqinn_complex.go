package workloads

import (
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
		"CREATE TABLE " + p + " (id " + v + " PRIMARY KEY NOT NULL, name " + v + " NOT NULL, active " + b + " NOT NULL)" + engine,
		idx(p, "name"), idx(p, "active"),
		"CREATE TABLE " + dv + " (id " + v + " PRIMARY KEY NOT NULL, profileId " + v + " NOT NULL, name " + v + " NOT NULL, active " + b + " NOT NULL, " +
			"FOREIGN KEY (profileId) REFERENCES " + p + " (id))" + engine,
		idx(dv, "profileId"), idx(dv, "name"), idx(dv, "active"),
		"CREATE TABLE " + l + " (id " + v + " PRIMARY KEY NOT NULL, deviceId " + v + " NOT NULL, name " + v + " NOT NULL, active " + b + " NOT NULL, " +
			"FOREIGN KEY (deviceId) REFERENCES " + dv + " (id))" + engine,
		idx(l, "deviceId"), idx(l, "name"), idx(l, "active"),
	}
}

var sqinnComplexTables = []string{"locations", "devices", "profiles"}

func sqinnComplexInsertSQL(d bench.Dialect, base string) string {
	cols := map[string]string{"profiles": "id, name, active", "devices": "id, profileId, name, active", "locations": "id, deviceId, name, active"}[base]
	n := strings.Count(cols, ",") + 1
	ps := make([]string, n)
	for i := range ps {
		ps[i] = d.Param(i + 1)
	}
	return "INSERT INTO " + d.Table(base) + " (" + cols + ") VALUES (" + strings.Join(ps, ", ") + ")"
}

func sqinnComplexQuery(d bench.Dialect) string {
	l, dv, p := d.Table("locations"), d.Table("devices"), d.Table("profiles")
	return "SELECT l.id, l.deviceId, l.name, l.active, dv.id, dv.profileId, dv.name, dv.active, p.id, p.name, p.active FROM " +
		l + " l LEFT JOIN " + dv + " dv ON dv.id = l.deviceId LEFT JOIN " + p + " p ON p.id = dv.profileId " +
		"WHERE l.active = " + d.Param(1) + " OR l.active = " + d.Param(2) + " ORDER BY l.name, l.id, dv.name, dv.id, p.name, p.id"
}

func sqinnComplex() []bench.Workload {
	return []bench.Workload{
		{
			Name: "SqinnComplexInsert", Whole: true, Ops: sqinnLocations, Unit: "locations", Smoke: sqinnComplexSmoke,
			Describe: func(d bench.Dialect) string {
				return "200 profiles, then 20,000 devices, then 200,000 locations (`" + sqinnComplexInsertSQL(d, "locations") +
					"`), each table in a transaction of its own through one prepared statement, keys and names formatted in the timed loop; " +
					"one operation is one location (with its device every 10 and profile every 1,000), commits timed; tables recreated before each run"
			},
			Setup: func(bench.Env) error { return nil }, Teardown: sqinnDropper(sqinnComplexTables...),
			Begin: sqinnComplexInsert,
		},
		{
			Name: "SqinnComplexQuery", Ops: 5, Unit: "queries", ScaledData: true, Smoke: sqinnComplexSmoke,
			Describe: func(d bench.Dialect) string {
				return "`" + sqinnComplexQuery(d) + "` with (0, 1), reading all 200,000 locations (times --scale) with their device and profile, each row scanned and checked in the timed loop"
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
			Begin: func(e bench.Env) (bench.Run, error) {
				c, q := e.Conn, sqinnComplexQuery(e.Dialect)
				r := newSqinnComplexReader(e.Scaled(sqinnProfiles) * sqinnDevicesPerProfile * sqinnLocationsPerDevice)
				row := r.row
				return bench.Run{Op: func(int) error { return r.check(c.Query(q, row, 0, 1)) }}, nil
			},
		},
	}
}

// Keys and names of the complex test's rows, by index from 0: location L
// belongs to device L/10, device D to profile D/100.
func sqinnProfileKey(p int) (id, name string) {
	return fmt.Sprintf("profile_%d", p), fmt.Sprintf("Profile %d", p)
}

func sqinnDeviceKey(dev int) (id, name string) {
	p, d := dev/sqinnDevicesPerProfile, dev%sqinnDevicesPerProfile
	return fmt.Sprintf("device_%d_%d", p, d), fmt.Sprintf("Device %d %d", p, d)
}

func sqinnLocationKey(loc int) (id, name string) {
	dev, l := loc/sqinnLocationsPerDevice, loc%sqinnLocationsPerDevice
	p, d := dev/sqinnDevicesPerProfile, dev%sqinnDevicesPerProfile
	return fmt.Sprintf("location_%d_%d_%d", p, d, l), fmt.Sprintf("Location %d %d %d", p, d, l)
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
	table := func(base string, from, to int, exec func(s bench.Stmt, k int) error) error {
		if err := t.begin(e.Conn, sqinnComplexInsertSQL(d, base)); err != nil {
			return err
		}
		for k := from; k < to; k++ {
			if err := exec(t.stmts[0], k); err != nil {
				return fmt.Errorf("insert into %s: %w", d.Table(base), err)
			}
		}
		return t.commit()
	}
	perProfile := sqinnDevicesPerProfile * sqinnLocationsPerDevice
	return bench.Run{
		Batch: func(first, n int) error {
			end := first + n
			profiles := (end + perProfile - 1) / perProfile
			devices := (end + sqinnLocationsPerDevice - 1) / sqinnLocationsPerDevice
			err := table("profiles", profilesIn, profiles, func(s bench.Stmt, p int) error {
				id, name := sqinnProfileKey(p)
				return s.Exec(id, name, int64(p%2))
			})
			if err != nil {
				return err
			}
			profilesIn = profiles
			err = table("devices", devicesIn, devices, func(s bench.Stmt, dev int) error {
				id, name := sqinnDeviceKey(dev)
				pid, _ := sqinnProfileKey(dev / sqinnDevicesPerProfile)
				return s.Exec(id, pid, name, int64(dev%sqinnDevicesPerProfile%2))
			})
			if err != nil {
				return err
			}
			devicesIn = devices
			return table("locations", first, end, func(s bench.Stmt, loc int) error {
				id, name := sqinnLocationKey(loc)
				did, _ := sqinnDeviceKey(loc / sqinnLocationsPerDevice)
				return s.Exec(id, did, name, int64(loc%sqinnLocationsPerDevice%2))
			})
		},
		End: func() error {
			if !t.done {
				t.abort()
				return nil
			}
			r := newSqinnComplexReader(e.Warm + e.N)
			if err := r.check(e.Conn.Query(sqinnComplexQuery(d), r.row, 0, 1)); err != nil {
				return fmt.Errorf("verify: %w", err)
			}
			return nil
		},
	}, nil
}

// sqinnComplexReader checks one read of the join: every location exactly
// once, with its device and profile, against values computed before the
// run. The rows come in the order of the names under the database's
// collation, which differs between databases, so each row is found by its
// key (parsed, not looked up) rather than by its position.
type sqinnComplexReader struct {
	locs, devs, profs [][2]string // id and name, by index
	seen              []bool
	n                 int
	lid, ldev, lname  string
	did, dprof, dname string
	pid, pname        string
	lact, dact, pact  int64
	dest              []any
}

func newSqinnComplexReader(locations int) *sqinnComplexReader {
	r := &sqinnComplexReader{locs: make([][2]string, locations), seen: make([]bool, locations)}
	devices := (locations + sqinnLocationsPerDevice - 1) / sqinnLocationsPerDevice
	profiles := (devices + sqinnDevicesPerProfile - 1) / sqinnDevicesPerProfile
	r.devs, r.profs = make([][2]string, devices), make([][2]string, profiles)
	for i := range r.locs {
		r.locs[i][0], r.locs[i][1] = sqinnLocationKey(i)
	}
	for i := range r.devs {
		r.devs[i][0], r.devs[i][1] = sqinnDeviceKey(i)
	}
	for i := range r.profs {
		r.profs[i][0], r.profs[i][1] = sqinnProfileKey(i)
	}
	r.dest = []any{&r.lid, &r.ldev, &r.lname, &r.lact, &r.did, &r.dprof, &r.dname, &r.dact, &r.pid, &r.pname, &r.pact}
	return r
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
	if err := row.Scan(r.dest...); err != nil {
		return err
	}
	r.n++
	loc, ok := sqinnLocationIndex(r.lid)
	if !ok || loc >= len(r.locs) || r.seen[loc] {
		return fmt.Errorf("row %d: location %q unknown or read twice", r.n, r.lid)
	}
	r.seen[loc] = true
	dev := loc / sqinnLocationsPerDevice
	p := dev / sqinnDevicesPerProfile
	switch {
	case r.lname != r.locs[loc][1] || r.ldev != r.devs[dev][0] || r.lact != int64(loc%sqinnLocationsPerDevice%2):
		return fmt.Errorf("wrong location %s: (%q, %q, %d)", r.lid, r.ldev, r.lname, r.lact)
	case r.did != r.devs[dev][0] || r.dname != r.devs[dev][1] || r.dprof != r.profs[p][0] || r.dact != int64(dev%sqinnDevicesPerProfile%2):
		return fmt.Errorf("wrong device %s of location %s: (%q, %q, %d)", r.did, r.lid, r.dprof, r.dname, r.dact)
	case r.pid != r.profs[p][0] || r.pname != r.profs[p][1] || r.pact != int64(p%2):
		return fmt.Errorf("wrong profile %s of location %s: (%q, %d)", r.pid, r.lid, r.pname, r.pact)
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
	if n != len(r.locs) {
		return fmt.Errorf("read %d locations, want %d", n, len(r.locs))
	}
	return nil
}
