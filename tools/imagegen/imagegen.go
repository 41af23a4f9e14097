// Package imagegen is gear's ImageGeneration tool: an OpenAI-compatible
// POST /v1/images/generations (go-openai's CreateImage) — OpenAI's
// gpt-image-1 and dall-e-3, LocalAI, stable-diffusion.cpp's sd-server —
// with the image saved under the data directory. It costs money, so it
// asks before running (Effect costs) and grounding reads its mock.
package imagegen

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
)

// Family is the image tools' family.
const Family tools.Family = "image"

// DefaultMaxBytes caps an image when Config.MaxBytes is 0.
const DefaultMaxBytes = 32 << 20

// Config is what ImageGeneration needs: models.image, where images go,
// and the clients it talks through.
type Config struct {
	// BaseURL is the endpoint's root including /v1; Model the model;
	// APIKey its key (empty for a local server).
	BaseURL, Model, APIKey string
	// Size is the size asked for when the call gives none;
	// ResponseFormat "b64_json", "url" or "" (the server's default;
	// GPT Image models refuse the field).
	Size, ResponseFormat string
	// Timeout bounds the generation; 0 means two minutes.
	Timeout time.Duration
	// MaxBytes caps an image, decoded or downloaded.
	MaxBytes int64
	// Dir is where images are saved.
	Dir string
	// HTTP sends the generation request; Web downloads a url answer.
	HTTP *http.Client
	Web  *webget.Client
	// Now names the files; nil means time.Now.
	Now func() time.Time
}

// Tool is the ImageGeneration tool.
type Tool struct{ cfg Config }

// New returns the ImageGeneration tool.
func New(cfg Config) *Tool {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{}
	}
	return &Tool{cfg: cfg}
}

// Sizes are the sizes the size parameter accepts: GPT Image's, DALL·E
// 3's and DALL·E 2's, and auto.
var Sizes = []string{"1024x1024", "1024x1536", "1536x1024", "1792x1024", "1024x1792", "512x512", "256x256", "auto"}

// Spec describes ImageGeneration.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{
		Name:   "ImageGeneration",
		Family: Family,
		Source: tools.Builtin,
		Effect: tools.EffectCosts,
		Description: "Image generation creates a new picture from a text description: " +
			"draw, paint, sketch, illustrate or render a scene, a portrait, a logo, an icon or artwork in any style, " +
			"and saves the generated image as a file.",
		Params: []tools.Param{
			{Name: "prompt", Type: tools.TypeString, MaxLen: 4000, Description: "what the picture shows, in words"},
			{Name: "size", Type: tools.TypeEnum, Enum: Sizes, Optional: true, Description: "width x height in pixels"},
			{Name: "style", Type: tools.TypeString, MaxLen: 200, Optional: true, Description: "the look: vivid or natural (DALL-E 3), or an art style for other models"},
		},
		Examples: []tools.Example{
			{Query: "Draw a cat wearing a space helmet", Call: `ImageGeneration("a cat wearing a space helmet")`},
			{Query: "Paint an oil painting of a stormy sea with a small boat", Call: `ImageGeneration("an oil painting of a stormy sea with a small boat")`},
			{Query: "Can you make me a picture of a cozy cabin in the woods, 1536x1024?", Call: `ImageGeneration("a cozy cabin in the woods", "1536x1024")`},
			{Query: "Generate an image of a robot reading a book in a library", Call: `ImageGeneration("a robot reading a book in a library")`},
			{Query: "Sketch a minimalist logo for a coffee shop called Bean There", Call: `ImageGeneration("a minimalist logo for a coffee shop called Bean There")`},
		},
		// Never run while grounding: it is slow and it costs.
		Mock:  "Image saved: images/20250101-120000-{prompt}.png (1024x1024 PNG)",
		Hints: hints(),
	}
}

// Image is ImageGeneration's structured result.
type Image struct {
	Path          string `json:"path"`
	Prompt        string `json:"prompt"`
	RevisedPrompt string `json:"revised_prompt,omitempty"`
	Model         string `json:"model,omitempty"`
	Format        string `json:"format"`
	Width         int    `json:"width"`
	Height        int    `json:"height"`
	Bytes         int    `json:"bytes"`
}

// NotConfiguredError is ImageGeneration run with no image model.
type NotConfiguredError struct{}

func (NotConfiguredError) Error() string {
	return "ImageGeneration: no image model is configured; set models.image.model (and models.image.base_url for LocalAI or sd-server), or GEAR_IMAGE_MODEL"
}

// Run generates, checks and saves the image.
func (t *Tool) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	prompt := strings.TrimSpace(call.Text("prompt"))
	if prompt == "" {
		return tools.Result{}, tools.Inputf("ImageGeneration: no prompt; say what the picture shows")
	}
	if t.cfg.Model == "" {
		return tools.Result{}, NotConfiguredError{}
	}
	if t.cfg.Dir == "" {
		return tools.Result{}, errors.New("ImageGeneration: no directory to save images in; set db (the data directory) in the config")
	}
	req := openai.ImageRequest{Prompt: prompt, Model: t.cfg.Model, N: 1, ResponseFormat: t.cfg.ResponseFormat, Size: t.cfg.Size}
	if s := call.Text("size"); s != "" {
		req.Size = s
	}
	if style := strings.TrimSpace(call.Text("style")); style != "" {
		if s := strings.ToLower(style); (s == "vivid" || s == "natural") && strings.HasPrefix(t.cfg.Model, "dall-e-3") {
			req.Style = s
		} else {
			req.Prompt = prompt + ". Style: " + style
		}
	}
	ctx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	defer cancel()
	resp, err := t.client().CreateImage(ctx, req)
	if err != nil {
		return tools.Result{}, t.explain(ctx, err)
	}
	if len(resp.Data) == 0 {
		return tools.Result{}, fmt.Errorf("ImageGeneration: %s answered with no image; check models.image.base_url", t.service())
	}
	d := resp.Data[0]
	var data []byte
	switch {
	case d.B64JSON != "":
		if int64(base64.StdEncoding.DecodedLen(len(d.B64JSON))) > t.cfg.MaxBytes+2 {
			return tools.Result{}, fmt.Errorf("ImageGeneration: %s sent an image larger than %d bytes; raise models.image.max_bytes", t.service(), t.cfg.MaxBytes)
		}
		data, err = base64.StdEncoding.DecodeString(strings.TrimSpace(d.B64JSON))
		if err != nil {
			return tools.Result{}, fmt.Errorf("ImageGeneration: %s sent b64_json that is not base64 (%v); check models.image.base_url", t.service(), err)
		}
	case d.URL != "":
		data, err = t.download(ctx, d.URL)
		if err != nil {
			return tools.Result{}, err
		}
	default:
		return tools.Result{}, fmt.Errorf("ImageGeneration: %s answered with neither b64_json nor url; check models.image.base_url", t.service())
	}
	info, err := Identify(data)
	if err != nil {
		return tools.Result{}, fmt.Errorf("ImageGeneration: %s sent %s; check models.image.base_url", t.service(), err)
	}
	path, err := save(t.cfg.Dir, t.cfg.Now(), prompt, info.Ext, data)
	if err != nil {
		return tools.Result{}, fmt.Errorf("ImageGeneration: saving the image: %w", err)
	}
	img := Image{Path: path, Prompt: prompt, RevisedPrompt: strings.TrimSpace(d.RevisedPrompt), Model: t.cfg.Model,
		Format: info.Format, Width: info.Width, Height: info.Height, Bytes: len(data)}
	return tools.Result{Text: format(img), Data: img}, nil
}

// format is the result as shown: the path first, on a line of its own,
// so scripts can take it.
func format(img Image) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n(%dx%d %s, %s", tools.SavedLine(img.Path), img.Width, img.Height, strings.ToUpper(img.Format), img.Model)
	b.WriteString(")")
	if img.RevisedPrompt != "" && img.RevisedPrompt != img.Prompt {
		b.WriteString("\nRevised prompt: " + img.RevisedPrompt)
	}
	return b.String()
}

func (t *Tool) service() string {
	if u, err := url.Parse(t.baseURL()); err == nil && u.Host != "" {
		return "the image service at " + u.Host
	}
	return "the image service"
}

func (t *Tool) baseURL() string {
	if t.cfg.BaseURL != "" {
		return strings.TrimRight(t.cfg.BaseURL, "/")
	}
	return "https://api.openai.com/v1"
}

func (t *Tool) client() *openai.Client {
	c := openai.DefaultConfig(t.cfg.APIKey)
	c.BaseURL = t.baseURL()
	// The answer of a b64_json image is its size and a third: capped
	// before go-openai reads it all into memory.
	hc := *t.cfg.HTTP
	hc.Transport = capped{next: t.cfg.HTTP.Transport, max: t.cfg.MaxBytes/3*4 + 64<<10}
	c.HTTPClient = &hc
	return openai.NewClientWithConfig(c)
}

// download fetches a url answer with the tools' HTTP client (deadline,
// size cap); only http and https URLs are fetched.
func (t *Tool) download(ctx context.Context, raw string) ([]byte, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("ImageGeneration: %s sent an image URL gear will not fetch (%.80q); only http(s) URLs are", t.service(), raw)
	}
	if t.cfg.Web == nil {
		return nil, errors.New("ImageGeneration: no web client to download the image with")
	}
	svc := webget.Service{Name: "the image download from " + u.Host, URLKey: "models.image.base_url"}
	return t.cfg.Web.Do(ctx, svc, webget.Request{URL: raw, Accept: "image/*", MaxBytes: t.cfg.MaxBytes})
}
