package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Load builds the configuration: defaults, then the file FilePath names
// for path (the --config flag, may be empty), then the environment.
func Load(path string, getenv Getenv) (Config, error) {
	cfg := Defaults()
	path, from := FilePath(path, getenv)
	explicit := from != FromDefault
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if err := decode(data, &cfg); err != nil {
				return Config{}, fmt.Errorf("config %s: %w", path, err)
			}
			if info, err := os.Stat(path); err == nil {
				if w := keyFileWarning(path, info.Mode(), cfg); w != "" {
					cfg.Warnings = append(cfg.Warnings, w)
				}
			}
		case errors.Is(err, fs.ErrNotExist) && !explicit:
		default:
			return Config{}, fmt.Errorf("config: cannot read %s: %w", path, unwrapPathError(err))
		}
	}
	if err := applyEnv(&cfg, getenv); err != nil {
		return Config{}, err
	}
	if cfg.DB == "" {
		cfg.DB = DefaultDB(getenv)
	}
	return cfg, cfg.Validate()
}

func decode(data []byte, cfg *Config) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil {
		if errors.Is(err, io.EOF) {
			// Only comments (gear config init's template): nothing set.
			return nil
		}
		return errors.New(yamlMessage(err))
	}
	return nil
}

var unknownFieldRE = regexp.MustCompile(`field (\S+) not found in type \S+`)

// yamlMessage turns yaml.v3's error into one line a person can act on:
// without the "yaml: " prefix (the file name says enough) and naming an
// unknown key as such rather than by Go type.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	msg = unknownFieldRE.ReplaceAllString(msg, `unknown key "$1" (gear config prints every key)`)
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "; ")
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func applyEnv(cfg *Config, getenv Getenv) error {
	if v := getenv("GEAR_DB"); v != "" {
		cfg.DB = v
	}
	if v := getenv("GEAR_OFFLINE"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("config: GEAR_OFFLINE=%q: want true or false", v)
		}
		cfg.Offline = b
	}
	if v := getenv("GEAR_HOME_PLACE"); v != "" {
		cfg.Home = v
	}
	if err := applyModelEnv(&cfg.Models, getenv); err != nil {
		return err
	}
	return applyMediaEnv(cfg, getenv)
}
