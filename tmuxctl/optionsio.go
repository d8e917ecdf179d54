package tmuxctl

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// An OptionScope is which of tmux's option trees a call reads or writes.
type OptionScope int

const (
	ServerScope  OptionScope = iota + 1 // show-options -s
	SessionScope                        // show-options (session options)
	WindowScope                         // show-options -w
	PaneScopeOpt                        // show-options -p (tmux 3.0 and later)
)

// An OptionTarget names one set of options: a scope, and either the
// object it belongs to (a $N, @N or %N id) or, with Global, the global
// defaults of that scope. Server options have neither.
type OptionTarget struct {
	Scope  OptionScope
	Target string
	Global bool
}

// flags returns the show-options/set-option flags selecting t.
func (t OptionTarget) flags() []string {
	var f []string
	switch t.Scope {
	case ServerScope:
		return []string{"-s"}
	case WindowScope:
		f = append(f, "-w")
	case PaneScopeOpt:
		f = append(f, "-p")
	}
	if t.Global {
		return append(f, "-g")
	}
	return append(f, "-t", t.Target)
}

// An Option is one option and its value exactly as tmux holds it.
type Option struct {
	Name      string // e.g. "status", "@mine", "command-alias[0]"
	Value     string
	Inherited bool // not set at this level: the value comes from a parent
}

// OptionName is what tmux-mcp accepts as an option name: tmux's own names,
// user options (@name) and one element of an array option (name[N]).
// Compiled on first use, as [EnvName] is.
var OptionName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@?[A-Za-z0-9_-]{1,128}(\[[0-9]{1,6}\])?$`)
})

// ShowOptions returns every option set at t — with inherited, also those
// t inherits from its parents — each with its exact value.
func (c *Client) ShowOptions(ctx context.Context, t OptionTarget, inherited bool) ([]Option, error) {
	argv := append([]string{"show-options"}, t.flags()...)
	if inherited {
		argv = append(argv, "-A")
	}
	out, err := c.command(ctx, argv...)
	if err != nil {
		return nil, err
	}
	// The listing escapes values in ways that vary between versions, so
	// only the names are taken from it; each value is then read raw (-v),
	// all in one tmux client, separated by a token no value can predict.
	var opts []Option
	for _, line := range strings.Split(out, "\n") {
		name, _, _ := strings.Cut(line, " ")
		if name == "" {
			continue
		}
		base, star := strings.CutSuffix(name, "*")
		opts = append(opts, Option{Name: base, Inherited: star})
	}
	if len(opts) == 0 {
		return nil, nil
	}
	sep := "_" + Nonce(12) + "V"
	sepArgv := []string{"display-message", "-p"}
	if !t.Global && t.Scope != ServerScope {
		sepArgv = append(sepArgv, "-t", t.Target)
	}
	sepArgv = append(sepArgv, sep)
	var cmds [][]string
	for _, o := range opts {
		cmds = append(cmds, c.showValueArgv(t, o.Name, o.Inherited), sepArgv)
	}
	out, err = c.commands(ctx, cmds...)
	if err != nil {
		return nil, err
	}
	values := strings.Split(out, sep+"\n")
	if len(values) != len(opts)+1 {
		return nil, fmt.Errorf("show-options: read %d values for %d options", len(values)-1, len(opts))
	}
	for i := range opts {
		opts[i].Value = c.unprinted(ctx, strings.TrimSuffix(values[i], "\n"))
	}
	return opts, nil
}

func (c *Client) showValueArgv(t OptionTarget, name string, inherited bool) []string {
	argv := append([]string{"show-options", "-v"}, t.flags()...)
	if strings.HasPrefix(name, "@") {
		argv = append(argv, "-q") // an unset user option is not an error
	}
	if inherited {
		argv = append(argv, "-A")
	}
	return append(argv, "--", name)
}

// ShowOption returns option name at t (with inherited, the value t
// inherits when it has none of its own); ok is false when it is not set.
// An option tmux does not know is an error.
func (c *Client) ShowOption(ctx context.Context, t OptionTarget, name string, inherited bool) (Option, bool, error) {
	list := append([]string{"show-options"}, t.flags()...)
	if strings.HasPrefix(name, "@") {
		list = append(list, "-q")
	}
	if inherited {
		list = append(list, "-A")
	}
	list = append(list, "--", name)
	sep := "_" + Nonce(12) + "V\n"
	sepArgv := []string{"display-message", "-p"}
	if !t.Global && t.Scope != ServerScope {
		sepArgv = append(sepArgv, "-t", t.Target)
	}
	out, err := c.commands(ctx, list, append(sepArgv, strings.TrimSuffix(sep, "\n")), c.showValueArgv(t, name, inherited))
	if err != nil {
		return Option{}, false, err
	}
	head, value, ok := strings.Cut(out, sep)
	if !ok {
		return Option{}, false, fmt.Errorf("show-options %s: unexpected output %q", name, truncate(out, 80))
	}
	if strings.TrimSpace(head) == "" {
		return Option{}, false, nil
	}
	first, _, _ := strings.Cut(head, " ")
	first, _, _ = strings.Cut(first, "\n")
	return Option{Name: name, Value: c.unprinted(ctx, strings.TrimSuffix(value, "\n")), Inherited: strings.HasSuffix(first, "*")}, true, nil
}

// SetOption sets option name at t to value, exactly: tmux stores it as
// given (no -F, so no format expansion when setting).
func (c *Client) SetOption(ctx context.Context, t OptionTarget, name, value string) error {
	argv := append(append([]string{"set-option"}, t.flags()...), "--", name, value)
	_, err := c.command(ctx, argv...)
	return err
}

// UnsetOption removes option name from t, so it inherits again (or, for a
// global option, goes back to its default).
func (c *Client) UnsetOption(ctx context.Context, t OptionTarget, name string) error {
	argv := append(append([]string{"set-option", "-u"}, t.flags()...), "--", name)
	_, err := c.command(ctx, argv...)
	return err
}

// A HookSet is one entry of a hook array.
type HookSet struct {
	Name    string
	Index   int
	Command string // as tmux prints it
}

// hookEntry matches a set hook line of show-hooks: name[index] command.
var hookEntry = regexp.MustCompile(`^([a-z-]+)\[(\d+)\] (.*)$`)

// ShowHooks returns the hooks set at t (session, window or pane scope, or
// their global defaults), and the names of every hook tmux knows.
func (c *Client) ShowHooks(ctx context.Context, t OptionTarget) (set []HookSet, known []string, err error) {
	argv := append([]string{"show-hooks"}, t.flags()...)
	out, err := c.command(ctx, argv...)
	if err != nil {
		return nil, nil, err
	}
	for _, line := range strings.Split(out, "\n") {
		if m := hookEntry.FindStringSubmatch(line); m != nil {
			var n int
			fmt.Sscan(m[2], &n)
			set = append(set, HookSet{Name: m[1], Index: n, Command: c.unprinted(ctx, m[3])})
			if len(known) == 0 || known[len(known)-1] != m[1] {
				known = append(known, m[1])
			}
		} else if line != "" && !strings.ContainsAny(line, " [") {
			known = append(known, line)
		}
	}
	return set, known, nil
}

// HookNames returns the names of every hook this tmux has: hooks are
// options too (of sessions, and of windows and panes), and set-option must
// never set one.
func (c *Client) HookNames(ctx context.Context) (map[string]bool, error) {
	names := map[string]bool{}
	for _, scope := range []OptionScope{SessionScope, WindowScope} {
		_, known, err := c.ShowHooks(ctx, OptionTarget{Scope: scope, Global: true})
		if err != nil {
			return nil, err
		}
		for _, n := range known {
			names[n] = true
		}
	}
	return names, nil
}

// OptionNames returns the names of tmux's own options, of every scope, as
// this tmux lists them (array options without their index). Hooks are not
// among them.
func (c *Client) OptionNames(ctx context.Context) (map[string]bool, error) {
	out, err := c.commands(ctx, []string{"show-options", "-s"}, []string{"show-options", "-g"}, []string{"show-options", "-gw"})
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		name, _, _ := strings.Cut(line, " ")
		name, _, _ = strings.Cut(name, "[")
		name = strings.TrimSuffix(name, "*")
		if name != "" && !strings.HasPrefix(name, "@") {
			names[name] = true
		}
	}
	return names, nil
}
