package merge

import "fmt"

// reasons says why a merge is partial: each change that did not apply and
// each validation check that failed, in words a reader of merge-log.md
// (or a host reading the return contract) can act on.
func (l Log) reasons() []string {
	var out []string
	for _, c := range l.Changes {
		if c.Status != ChangeApplied {
			out = append(out, fmt.Sprintf("Change #%d %s: %s", c.Change, lower(c.Status), c.Reason))
		}
	}
	v := l.Validation
	if v.NotRun != "" {
		return out
	}
	count := func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	}
	if !v.Structure.Passed {
		n, dup := 0, 0
		for _, p := range v.Structure.Problems {
			switch {
			case p.InBase:
			case p.Rule == RuleDuplicate:
				dup++
			default:
				n++
			}
		}
		if dup > 0 {
			out = append(out, "structural integrity: "+count(dup, "duplicated topic"))
		}
		if n > 0 {
			out = append(out, "structural integrity: "+count(n, "heading problem")+" the merge introduced")
		}
	}
	if !v.References.Passed {
		n := 0
		for _, b := range v.References.Broken {
			if !b.InBase && !b.InSource {
				n++
			}
		}
		out = append(out, "internal references: "+count(n, "broken reference")+" the merge introduced")
	}
	switch v.Rescan.State {
	case RescanFailed:
		out = append(out, "contradiction re-scan: "+count(len(v.Rescan.New), "contradiction")+" the base did not have")
	case RescanError:
		out = append(out, "contradiction re-scan: "+v.Rescan.Err)
	}
	return out
}

func lower(s ChangeStatus) string {
	switch s {
	case ChangeFailed:
		return "failed"
	case ChangeSkipped:
		return "was skipped"
	}
	return string(s)
}
