package targets

// ScriptWorkload is the ID of the script workload (workloads/script), which
// sessions build from the user's files rather than a registry.
const ScriptWorkload = "Script"

// Why targets cannot run the script workload.
const (
	scriptNoWidth = "its rows do not tell their column count (scripts need it)"
	scriptFloor   = "a protocol floor runs only the classic calls it implements"
)

// refuseScripts adds to the catalogue the targets that cannot run the
// script workload, with why.
func refuseScripts(specs []Spec) []Spec {
	for i, s := range specs {
		why := ""
		switch {
		case s.Name == "sqinn":
			why = scriptNoWidth
		case s.Floor:
			why = scriptFloor
		}
		if why == "" {
			continue
		}
		r := map[string]string{ScriptWorkload: why}
		for k, v := range s.Refuses {
			r[k] = v
		}
		specs[i].Refuses = r
	}
	return specs
}
