package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// An EnvVar is one entry of a tmux environment: a value, or a name marked
// for removal from new processes' environments (set-environment -r).
type EnvVar struct {
	Name    string
	Value   string
	Removed bool
}

// EnvName is what tmux-mcp accepts as an environment variable name.
// Compiled on first use: a counted repetition this long takes most of a
// millisecond, which every start would otherwise pay.
var EnvName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,255}$`) })

func envArgs(session SessionID) []string {
	if session == "" {
		return []string{"-g"}
	}
	return []string{"-t", string(session)}
}

// Environment returns the global environment (session "") or a session's.
// The listing alone cannot tell a value's line break from the next entry,
// so it gives only the names; each value is then read exactly.
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
		if EnvName().MatchString(name) && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	for len(names) > 0 {
		vars, err := c.environmentValues(ctx, session, names)
		var ce *CommandError
		if errors.As(err, &ce) && strings.HasPrefix(ce.Message, "unknown variable: ") {
			// A "NAME=" line inside some value's text is not a variable:
			// read the others again without it.
			bogus := strings.TrimPrefix(strings.SplitN(ce.Message, "\n", 2)[0], "unknown variable: ")
			if i := slices.Index(names, bogus); i >= 0 {
				names = slices.Delete(names, i, i+1)
				continue
			}
		}
		return vars, err
	}
	return nil, nil
}

// environmentValues reads each of names on its own, all in one tmux
// client, separated by a token no value can predict.
func (c *Client) environmentValues(ctx context.Context, session SessionID, names []string) ([]EnvVar, error) {
	sep := "_" + Nonce(12) + "E"
	sepArgv := []string{"display-message", "-p"}
	if session != "" {
		sepArgv = append(sepArgv, "-t", string(session))
	}
	var cmds [][]string
	for _, name := range names {
		cmds = append(cmds, append(append([]string{"show-environment"}, envArgs(session)...), "--", name), append(sepArgv, sep))
	}
	out, err := c.commands(ctx, cmds...)
	if err != nil {
		return nil, err
	}
	entries := strings.Split(out, sep+"\n")
	if len(entries) != len(names)+1 {
		return nil, fmt.Errorf("show-environment: read %d variables for %d names", len(entries)-1, len(names))
	}
	vars := make([]EnvVar, 0, len(names))
	for i, name := range names {
		if v, ok := parseEnvEntry(name, c.unprinted(ctx, entries[i])); ok {
			vars = append(vars, v)
		}
	}
	return vars, nil
}

// parseEnvEntry reads show-environment's output for one variable: NAME=value
// or -NAME (removed).
func parseEnvEntry(name, out string) (EnvVar, bool) {
	out = strings.TrimSuffix(out, "\n")
	if out == "-"+name {
		return EnvVar{Name: name, Removed: true}, true
	}
	value, ok := strings.CutPrefix(out, name+"=")
	if !ok {
		return EnvVar{}, false
	}
	return EnvVar{Name: name, Value: value}, true
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
	v, ok := parseEnvEntry(name, c.unprinted(ctx, out))
	return v, ok, nil
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
