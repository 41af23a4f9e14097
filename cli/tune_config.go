package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/config"
)

// writeGroundingConfig sets the fitted values under grounding: in the
// config file, editing its YAML node tree so that every other setting and
// the comments stay (the layout is re-indented by two spaces). The result
// must load before it replaces the file.
func (a *app) writeGroundingConfig(p tuneParams) (string, error) {
	path := a.tuneConfigPath()
	if path == "" {
		return "", usageErrorf("tune: no config file to write: give --config PATH")
	}
	old, err := os.ReadFile(path)
	mode := fs.FileMode(0o600)
	switch {
	case err == nil:
		if info, serr := os.Stat(path); serr == nil {
			mode = info.Mode().Perm()
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", fmt.Errorf("tune: %w", err)
		}
	default:
		return "", fmt.Errorf("tune: cannot read %s: %w", path, err)
	}
	updated, err := setGroundingValues(old, []keyValue{
		{"gamma", p.Gamma}, {"threshold", p.Threshold}, {"temperature", p.Temperature}, {"none_score", p.NoneScore},
		{"confidence_none.a", p.Confidence.None.A}, {"confidence_none.b", p.Confidence.None.B},
		{"confidence_tool.a", p.Confidence.Tool.A}, {"confidence_tool.b", p.Confidence.Tool.B}})
	if err != nil {
		return "", fmt.Errorf("tune: config %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gear-config-*.yaml")
	if err != nil {
		return "", fmt.Errorf("tune: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(updated); err != nil {
		tmp.Close()
		return "", fmt.Errorf("tune: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("tune: %w", err)
	}
	if _, err := config.Load(tmp.Name(), func(string) string { return "" }); err != nil {
		return "", fmt.Errorf("tune: the edited config would not load, so %s is left as it was: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return "", fmt.Errorf("tune: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("tune: %w", err)
	}
	return path, nil
}

type keyValue struct {
	key   string
	value float64
}

// setGroundingValues returns the YAML document with grounding.<key> set
// to each value (a dotted key names a nested one: confidence_none.a):
// existing keys change in place (their comments stay),
// missing ones are added, a missing grounding: section is added at the
// end.
func setGroundingValues(doc []byte, values []keyValue) ([]byte, error) {
	var root yaml.Node
	if len(bytes.TrimSpace(doc)) > 0 {
		if err := yaml.Unmarshal(doc, &root); err != nil {
			return nil, fmt.Errorf("not valid YAML: %w", err)
		}
	}
	if root.Kind == 0 {
		root = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("the file is not a YAML mapping of settings")
	}
	section := mappingValue(root.Content[0], "grounding")
	for _, kv := range values {
		parent, key := section, kv.key
		for {
			head, rest, nested := strings.Cut(key, ".")
			if !nested {
				break
			}
			parent, key = mappingValue(parent, head), rest
		}
		v := mappingValue(parent, key)
		v.Kind, v.Tag, v.Style, v.Value, v.Content = yaml.ScalarNode, "!!float", 0, floatText(kv.value), nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mappingValue returns the value node of key in a mapping, adding the key
// (with an empty mapping) when missing; a key present with no value (null)
// becomes an empty mapping too, ready for children.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			if v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == "") {
				v.Kind, v.Tag, v.Value = yaml.MappingNode, "!!map", ""
			}
			return v
		}
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
	v := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	m.Content = append(m.Content, k, v)
	return v
}

// floatText writes a float YAML reads back as a float (1 as 1.0).
func floatText(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}
