package tmuxctl

import (
	"context"
	"errors"
	"regexp"
	"strings"
)

// An EnvVar is one entry of a tmux environment: a value, or a name marked
// for removal from new processes' environments (set-environment -r).
type EnvVar struct {
	Name    string
	Value   string
	Removed bool
}

// EnvName is what tmux-mcp accepts as an environment variable name.
var EnvName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,255}$`)

func envArgs(session SessionID) []string {
	if session == "" {
		return []string{"-g"}
	}
	return []string{"-t", string(session)}
}

// Environment returns the global environment (session "") or a session's.
// Each value is read exactly, one tmux client for all, since the listing
// alone cannot tell a value's line break from the next entry.
func (c *Client) Environment(ctx context.Context, session SessionID) ([]EnvVar, error) {
	out, err := c.command(ctx, append([]string{"show-environment"}, envArgs(session)...)...)
	if err != nil {
		return nil, err
	}
	var names []string
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		name, _, ok := strings.Cut(strings.TrimPrefix(line, "-"), "=")
		if !ok && !strings.HasPrefix(line, "-") {
			continue
		}
		if EnvName.MatchString(name) && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	vars := make([]EnvVar, 0, len(names))
	for _, name := range names {
		v, ok, err := c.EnvironmentVar(ctx, session, name)
		if err != nil {
			return nil, err
		}
		if ok {
			vars = append(vars, v)
		}
	}
	return vars, nil
}

// EnvironmentVar returns one variable; ok is false when it is not there.
func (c *Client) EnvironmentVar(ctx context.Context, session SessionID, name string) (EnvVar, bool, error) {
	argv := append(append([]string{"show-environment"}, envArgs(session)...), "--", name)
	out, err := c.command(ctx, argv...)
	if err != nil {
		var ce *CommandError
		if errors.As(err, &ce) && strings.HasPrefix(ce.Message, "unknown variable") {
			return EnvVar{}, false, nil
		}
		return EnvVar{}, false, err
	}
	out = strings.TrimSuffix(out, "\n")
	if out == "-"+name {
		return EnvVar{Name: name, Removed: true}, true, nil
	}
	value, ok := strings.CutPrefix(out, name+"=")
	if !ok {
		return EnvVar{}, false, nil
	}
	return EnvVar{Name: name, Value: value}, true, nil
}

// SetEnvironment sets name to value exactly (no -F: no format expansion).
func (c *Client) SetEnvironment(ctx context.Context, session SessionID, name, value string) error {
	argv := append(append([]string{"set-environment"}, envArgs(session)...), "--", name, value)
	_, err := c.command(ctx, argv...)
	return err
}

// UnsetEnvironment removes name from the environment altogether.
func (c *Client) UnsetEnvironment(ctx context.Context, session SessionID, name string) error {
	argv := append(append([]string{"set-environment", "-u"}, envArgs(session)...), "--", name)
	_, err := c.command(ctx, argv...)
	return err
}
