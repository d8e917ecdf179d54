// This file holds the tools of the catalogue family Options, environment
// and buffers (show_option, set_option, show_environment, set_environment,
// show_hooks, *_buffer, paste_text).

package handlers

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// ShowOption reads one option, or every option, of the server, a session,
// a window or a pane, with exact values.
func (h *Handlers) ShowOption(ctx context.Context, in gen.ShowOptionInput) (gen.ShowOptionOutput, error) {
	t, err := h.optionTarget(ctx, string(in.Scope), in.TargetID, in.Global)
	if err != nil {
		return gen.ShowOptionOutput{}, err
	}
	var opts []tmuxctl.Option
	if in.Name != nil {
		o, ok, err := h.tmux.ShowOption(ctx, t, *in.Name, in.Inherited)
		if err != nil {
			return gen.ShowOptionOutput{}, h.explainOption(ctx, err, *in.Name)
		}
		if ok {
			opts = append(opts, o)
		}
	} else if opts, err = h.tmux.ShowOptions(ctx, t, in.Inherited); err != nil {
		return gen.ShowOptionOutput{}, h.explain(ctx, err)
	}
	rows := make([]gen.OptionView, len(opts))
	for i, o := range opts {
		rows[i] = gen.OptionView{Name: o.Name, Value: o.Value, Inherited: o.Inherited}
	}
	return gen.ShowOptionOutput{Scope: string(in.Scope), TargetID: targetOut(t), Global: t.Global, Options: rows}, nil
}

// SetOption sets or unsets one option, refusing any whose value tmux would
// run or expand, and reads the value back.
func (h *Handlers) SetOption(ctx context.Context, in gen.SetOptionInput) (gen.SetOptionOutput, error) {
	t, err := h.optionTarget(ctx, string(in.Scope), in.TargetID, in.Global)
	if err != nil {
		return gen.SetOptionOutput{}, err
	}
	if err := h.refuseRunnableOption(ctx, in.Name, in.Value, in.Unset); err != nil {
		return gen.SetOptionOutput{}, err
	}
	if in.Unset {
		err = h.tmux.UnsetOption(ctx, t, in.Name)
	} else {
		if in.Value == nil {
			return gen.SetOptionOutput{}, wording.ValueRequired()
		}
		if err := fitsOneCommand("value", *in.Value); err != nil {
			return gen.SetOptionOutput{}, err
		}
		err = h.tmux.SetOption(ctx, t, in.Name, *in.Value)
	}
	if err != nil {
		return gen.SetOptionOutput{}, h.explainOption(ctx, err, in.Name)
	}
	out := gen.SetOptionOutput{Scope: string(in.Scope), TargetID: targetOut(t), Global: t.Global, Name: in.Name, Unset: in.Unset}
	if o, ok, err := h.tmux.ShowOption(ctx, t, in.Name, false); err == nil && ok {
		out.Value = &o.Value
	}
	return out, nil
}

// commandOptions are tmux options whose values tmux runs as commands or
// programs, that define commands, or that name a file tmux writes: never
// set on a caller's behalf.
var commandOptions = map[string]bool{
	"default-command": true, "default-shell": true, "copy-command": true, "lock-command": true,
	"editor": true, "command-alias": true, "default-client-command": true, "history-file": true,
}

// ownOptionPrefix starts the user options in which tmux-mcp records its
// own changes (tmuxctl.PipeOption, tmuxctl.HoldOption).
const ownOptionPrefix = "@tmux-mcp-"

// knownHooks are the hooks of tmux 3.2a to 3.7 other than the after-*
// ones: hooks are options whose values are commands.
var knownHooks = map[string]bool{
	"alert-activity": true, "alert-bell": true, "alert-silence": true, "client-active": true,
	"client-attached": true, "client-detached": true, "client-focus-in": true, "client-focus-out": true,
	"client-resized": true, "client-session-changed": true, "client-light-theme": true, "client-dark-theme": true,
	"command-error": true, "pane-died": true, "pane-exited": true, "pane-focus-in": true, "pane-focus-out": true,
	"pane-mode-changed": true, "pane-set-clipboard": true, "pane-title-changed": true, "session-closed": true,
	"session-created": true, "session-renamed": true, "session-window-changed": true, "window-layout-changed": true,
	"window-linked": true, "window-pane-changed": true, "window-renamed": true, "window-resized": true,
	"window-unlinked": true,
}

// colourHash is a '#' that starts an RGB colour, the one '#' tmux's own
// options may hold: it expands to nothing and runs nothing.
var colourHash = regexp.MustCompile(`#[0-9A-Fa-f]{6}\b`)

// refuseRunnableOption refuses to set a hook, a command-valued option, or a
// tmux option value that tmux would expand as a format (where #(...) runs
// a shell command). User options (@name) are plain text to tmux.
func (h *Handlers) refuseRunnableOption(ctx context.Context, name string, value *string, unset bool) error {
	if strings.HasPrefix(name, ownOptionPrefix) {
		return wording.OptionOurs(name)
	}
	if strings.HasPrefix(name, "@") {
		return nil
	}
	base, _, _ := strings.Cut(name, "[")
	if commandOptions[base] {
		return wording.OptionRuns(base)
	}
	hooks, err := h.tmux.HookNames(ctx)
	if err != nil {
		return h.explain(ctx, err)
	}
	// Hooks this tmux lists, and those of any version, in case a version
	// lists only the hooks that are set.
	if hooks[base] || knownHooks[base] || strings.HasPrefix(base, "after-") {
		return wording.OptionHook(base)
	}
	// tmux takes any unambiguous abbreviation ("session-clo" is the hook
	// session-closed, "command-a" is command-alias), which the checks
	// above would not recognise: only a full name this tmux lists passes.
	names, err := h.tmux.OptionNames(ctx)
	if err != nil {
		return h.explain(ctx, err)
	}
	if !names[base] {
		return wording.OptionAbbreviated(base)
	}
	if !unset && value != nil && strings.Contains(colourHash.ReplaceAllString(*value, ""), "#") {
		return wording.OptionHash(name)
	}
	return nil
}

// optionTarget checks scope, targetId and global against each other and
// that the target exists.
func (h *Handlers) optionTarget(ctx context.Context, scope string, target *string, global bool) (tmuxctl.OptionTarget, error) {
	var t tmuxctl.OptionTarget
	var prefix, kind string
	switch scope {
	case string(gen.ShowOptionInputScopeServer):
		return tmuxctl.OptionTarget{Scope: tmuxctl.ServerScope}, nil
	case string(gen.ShowOptionInputScopeSession):
		t.Scope, prefix, kind = tmuxctl.SessionScope, "$", "session"
	case string(gen.ShowOptionInputScopeWindow):
		t.Scope, prefix, kind = tmuxctl.WindowScope, "@", "window"
	case string(gen.ShowOptionInputScopePane):
		t.Scope, prefix, kind = tmuxctl.PaneScopeOpt, "%", "pane"
	default:
		return t, wording.BadScope(scope)
	}
	if global {
		if t.Scope == tmuxctl.PaneScopeOpt {
			return t, wording.PaneGlobal()
		}
		t.Global = true
		return t, nil
	}
	if target == nil || !strings.HasPrefix(*target, prefix) {
		return t, wording.ScopeTarget(string(scope), kind, prefix)
	}
	t.Target = *target
	var err error
	switch t.Scope {
	case tmuxctl.SessionScope:
		_, err = h.tmux.Session(ctx, tmuxctl.SessionID(*target))
	case tmuxctl.WindowScope:
		_, err = h.tmux.Window(ctx, tmuxctl.WindowID(*target))
	default:
		_, err = h.tmux.Pane(ctx, tmuxctl.PaneID(*target))
	}
	if err != nil {
		return t, h.explain(ctx, err)
	}
	return t, nil
}

// explainOption words tmux's refusal of an option name.
func (h *Handlers) explainOption(ctx context.Context, err error, name string) error {
	if errors.Is(err, tmuxctl.ErrUnknownOption) {
		return wording.UnknownOption(name, err)
	}
	return h.explain(ctx, err)
}

func targetOut(t tmuxctl.OptionTarget) *string {
	if t.Global || t.Scope == tmuxctl.ServerScope {
		return nil
	}
	s := t.Target
	return &s
}

// ShowHooks lists the hooks set on a session, window or pane, or globally.
func (h *Handlers) ShowHooks(ctx context.Context, in gen.ShowHooksInput) (gen.ShowHooksOutput, error) {
	scope := string(gen.ShowHooksInputScopeSession)
	if in.Scope != nil {
		scope = string(*in.Scope)
	}
	if in.Global && scope == string(gen.ShowHooksInputScopePane) {
		scope = string(gen.ShowHooksInputScopeWindow) // global pane hooks are the window's
	}
	t, err := h.optionTarget(ctx, scope, in.TargetID, in.Global)
	if err != nil {
		return gen.ShowHooksOutput{}, err
	}
	set, known, err := h.tmux.ShowHooks(ctx, t)
	if err != nil {
		return gen.ShowHooksOutput{}, h.explain(ctx, err)
	}
	if in.Name != nil && t.Global && !contains(known, *in.Name) {
		return gen.ShowHooksOutput{}, wording.NoHook(*in.Name)
	}
	hooks := []gen.HookView{}
	for _, s := range set {
		if in.Name == nil || s.Name == *in.Name {
			hooks = append(hooks, gen.HookView{Name: s.Name, Index: s.Index, Command: s.Command})
		}
	}
	return gen.ShowHooksOutput{Scope: scope, TargetID: targetOut(t), Global: t.Global, Hooks: hooks}, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// maxArgBytes bounds a caller's value that tmux must take as one argument
// of one command: tmux refuses a client's command beyond 16 KiB ("command
// too long"), and the schema's maxLength counts characters, not bytes.
const maxArgBytes = 8192

// fitsOneCommand refuses a value too long for one tmux command, naming
// field.
func fitsOneCommand(field, v string) error {
	if len(v) > maxArgBytes {
		return wording.TooLongForTmux(field, len(v), maxArgBytes)
	}
	return nil
}

// ShowEnvironment reads the global environment or a session's, or one
// variable of it, with exact values.
func (h *Handlers) ShowEnvironment(ctx context.Context, in gen.ShowEnvironmentInput) (gen.ShowEnvironmentOutput, error) {
	session, err := h.envSession(ctx, in.SessionID)
	if err != nil {
		return gen.ShowEnvironmentOutput{}, err
	}
	var vars []tmuxctl.EnvVar
	if in.Name != nil {
		v, ok, err := h.tmux.EnvironmentVar(ctx, session, *in.Name)
		if err != nil {
			return gen.ShowEnvironmentOutput{}, h.explain(ctx, err)
		}
		if ok {
			vars = append(vars, v)
		}
	} else if vars, err = h.tmux.Environment(ctx, session); err != nil {
		return gen.ShowEnvironmentOutput{}, h.explain(ctx, err)
	}
	rows := make([]gen.EnvVarView, len(vars))
	for i, v := range vars {
		rows[i] = gen.EnvVarView{Name: v.Name, Removed: v.Removed}
		if !v.Removed {
			value := v.Value
			rows[i].Value = &value
		}
	}
	return gen.ShowEnvironmentOutput{SessionID: in.SessionID, Variables: rows}, nil
}

// SetEnvironment sets or unsets one variable and reads it back.
func (h *Handlers) SetEnvironment(ctx context.Context, in gen.SetEnvironmentInput) (gen.SetEnvironmentOutput, error) {
	session, err := h.envSession(ctx, in.SessionID)
	if err != nil {
		return gen.SetEnvironmentOutput{}, err
	}
	if in.Unset {
		err = h.tmux.UnsetEnvironment(ctx, session, in.Name)
	} else {
		if in.Value == nil {
			return gen.SetEnvironmentOutput{}, wording.ValueRequired()
		}
		if err := fitsOneCommand("value", *in.Value); err != nil {
			return gen.SetEnvironmentOutput{}, err
		}
		err = h.tmux.SetEnvironment(ctx, session, in.Name, *in.Value)
	}
	if err != nil {
		return gen.SetEnvironmentOutput{}, h.explain(ctx, err)
	}
	out := gen.SetEnvironmentOutput{SessionID: in.SessionID, Name: in.Name, Unset: in.Unset}
	if v, ok, err := h.tmux.EnvironmentVar(ctx, session, in.Name); err == nil && ok && !v.Removed {
		out.Value = &v.Value
	}
	return out, nil
}

// envSession checks that a given session exists; nil is the global
// environment.
func (h *Handlers) envSession(ctx context.Context, id *string) (tmuxctl.SessionID, error) {
	if id == nil {
		return "", nil
	}
	if _, err := h.tmux.Session(ctx, tmuxctl.SessionID(*id)); err != nil {
		return "", h.explain(ctx, err)
	}
	return tmuxctl.SessionID(*id), nil
}

// ListBuffers lists the server's paste buffers, newest first.
func (h *Handlers) ListBuffers(ctx context.Context, in gen.ListBuffersInput) (gen.ListBuffersOutput, error) {
	bufs, err := h.tmux.ListBuffers(ctx)
	if err != nil && !errors.Is(err, tmuxctl.ErrServerGone) {
		return gen.ListBuffersOutput{}, h.explain(ctx, err)
	}
	rows := make([]gen.BufferView, len(bufs))
	for i, b := range bufs {
		rows[i] = gen.BufferView{Name: b.Name, Size: b.Size, CreatedUnix: int(b.Created.Unix())}
	}
	return gen.ListBuffersOutput{Buffers: rows}, nil
}

// ShowBuffer returns a buffer's contents within the byte ceiling.
func (h *Handlers) ShowBuffer(ctx context.Context, in gen.ShowBufferInput) (gen.ShowBufferOutput, error) {
	data, err := h.tmux.BufferData(ctx, in.Name)
	if err != nil {
		return gen.ShowBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	full := strings.ToValidUTF8(string(data), "\uFFFD")
	text := full
	if len(text) > h.limits.MaxBytes {
		text = clip.ValidPrefix(text, h.limits.MaxBytes)
	}
	return gen.ShowBufferOutput{
		Name:          in.Name,
		Text:          text,
		Size:          len(data),
		ReturnedBytes: len(text),
		OmittedBytes:  len(full) - len(text),
		InvalidUtf8:   !utf8.Valid(data),
	}, nil
}

// LoadBuffer sets a buffer's contents exactly.
func (h *Handlers) LoadBuffer(ctx context.Context, in gen.LoadBufferInput) (gen.LoadBufferOutput, error) {
	if err := refusePrivateBuffer(in.Name); err != nil {
		return gen.LoadBufferOutput{}, err
	}
	if err := h.tmux.LoadBuffer(ctx, in.Name, []byte(in.Text)); err != nil {
		return gen.LoadBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	return gen.LoadBufferOutput{Name: in.Name, Size: len(in.Text)}, nil
}

// DeleteBuffer deletes a buffer.
func (h *Handlers) DeleteBuffer(ctx context.Context, in gen.DeleteBufferInput) (gen.DeleteBufferOutput, error) {
	if err := refusePrivateBuffer(in.Name); err != nil {
		return gen.DeleteBufferOutput{}, err
	}
	if err := h.tmux.DeleteBuffer(ctx, in.Name); err != nil {
		return gen.DeleteBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	return gen.DeleteBufferOutput{Name: in.Name}, nil
}

// PasteBuffer pastes a buffer into a pane, bracketed if the program asked
// for bracketed paste, and returns a cursor from before the paste.
func (h *Handlers) PasteBuffer(ctx context.Context, in gen.PasteBufferInput) (gen.PasteBufferOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.typable(ctx, id, in.Force)
	if err != nil {
		return gen.PasteBufferOutput{}, err
	}
	data, err := h.tmux.BufferData(ctx, in.Name)
	if err != nil {
		return gen.PasteBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	cursor := h.cursorBefore(ctx, id)
	h.echo.Typed(string(id), p.PID, string(data), true, in.Enter)
	if err := h.tmux.PasteBuffer(ctx, id, in.Name, in.Delete, in.Enter); err != nil {
		return gen.PasteBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	return gen.PasteBufferOutput{PaneID: in.PaneID, Name: in.Name, Deleted: in.Delete, Enter: in.Enter, Cursor: cursor}, nil
}

// PasteText types text into a pane exactly, through a private buffer that
// never outlives the call, and returns a cursor from before its first byte.
func (h *Handlers) PasteText(ctx context.Context, in gen.PasteTextInput) (gen.PasteTextOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.typable(ctx, id, in.Force)
	if err != nil {
		return gen.PasteTextOutput{}, err
	}
	cursor := h.cursorBefore(ctx, id)
	h.echo.Typed(string(id), p.PID, in.Text, true, in.Enter)
	if err := h.tmux.PasteText(ctx, id, []byte(in.Text), in.Enter); err != nil {
		return gen.PasteTextOutput{}, h.explain(ctx, err)
	}
	return gen.PasteTextOutput{PaneID: in.PaneID, Bytes: len(in.Text), Enter: in.Enter, Cursor: cursor}, nil
}

// typable returns pane id if text may be typed into it: it exists, is not
// this server's own pane, is alive and not in a mode (unless force).
func (h *Handlers) typable(ctx context.Context, id tmuxctl.PaneID, force bool) (tmuxctl.Pane, error) {
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return p, h.explain(ctx, err)
	}
	if err := h.refuseOwn(id, force, "paste into"); err != nil {
		return p, err
	}
	if p.Dead {
		return p, wording.PaneDead(p)
	}
	if p.InMode && !force {
		return p, wording.InMode(id, "paste into the mode anyway")
	}
	return p, nil
}

// cursorBefore returns a cursor at the end of pane id's stream now, before
// anything this call causes; nil (with a note) if it cannot be watched.
func (h *Handlers) cursorBefore(ctx context.Context, id tmuxctl.PaneID) any {
	s, err := h.hub.Watch(ctx, id)
	if err != nil {
		note(ctx, wording.NoteUnwatchable(string(id), err))
		return nil
	}
	return nullableCursor(s.Cursor(s.End()))
}

// explainBuffer words a missing buffer.
func (h *Handlers) explainBuffer(ctx context.Context, err error, name string) error {
	if errors.Is(err, tmuxctl.ErrNoBuffer) {
		return wording.NoBuffer(name)
	}
	return h.explain(ctx, err)
}

// refusePrivateBuffer refuses the names of paste_text's private buffers: a
// buffer a caller made under such a name would be deleted by the startup
// sweep of a later tmux-mcp, and one of ours must not be removed under a
// paste that is using it.
func refusePrivateBuffer(name string) error {
	if strings.HasPrefix(name, tmuxctl.PasteBufferPrefix) {
		return wording.PrivateBuffer(name)
	}
	return nil
}
