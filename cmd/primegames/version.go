package main

import (
	"runtime/debug"
	"strings"
)

// version is set at build time: go build -ldflags "-X main.version=v1.4.0" ./cmd/primegames.
var version string

// versionString is the version set at build time or else the one Go recorded (a module version,
// or the commit of the checkout it was built from), with the commit and the Go release.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return orDevel(version)
	}
	v := version
	if v == "" {
		v = info.Main.Version
	}
	var details []string
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		if settings["vcs.modified"] == "true" {
			rev += "+dirty"
		}
		details = append(details, "commit "+rev)
	}
	details = append(details, info.GoVersion)
	return orDevel(v) + " (" + strings.Join(details, ", ") + ")"
}

func orDevel(v string) string {
	if v == "" {
		return "(devel)"
	}
	return v
}
