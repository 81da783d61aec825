#ifndef RACEKIT_CSPEECH_SHIM_H
#define RACEKIT_CSPEECH_SHIM_H
// The speech engine and the Opus codec `script render` uses, loaded when a
// command first renders audio (dlopen), like libpq: no other command pays for
// loading them, and racekit starts and says what is missing where they are not
// installed. libespeak-ng (Debian libespeak-ng1; its header from
// libespeak-ng-dev) speaks text to PCM; libopusenc (libopusenc0) encodes it as
// Ogg Opus; opusfile (libopusfile0) decodes Ogg Opus back to PCM.
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <espeak-ng/espeak_ng.h>

// The functions RaceKit calls in libespeak-ng.so.1 (the ABI of eSpeak NG 1.49 and later).
typedef struct {
    void (*initializePath)(const char *path);
    espeak_ng_STATUS (*initialize)(espeak_ng_ERROR_CONTEXT *context);
    espeak_ng_STATUS (*initializeOutput)(espeak_ng_OUTPUT_MODE mode, int buffer_length, const char *device);
    int (*sampleRate)(void);
    espeak_ng_STATUS (*setVoiceByName)(const char *name);
    espeak_ng_STATUS (*synthesize)(const void *text, size_t size, unsigned int position,
                                   espeak_POSITION_TYPE position_type, unsigned int end_position,
                                   unsigned int flags, unsigned int *unique_identifier, void *user_data);
    void (*statusMessage)(espeak_ng_STATUS status, char *buffer, size_t length);
    void (*setSynthCallback)(t_espeak_callback *callback);
    const espeak_VOICE **(*listVoices)(espeak_VOICE *voice_spec);
    const char *(*info)(const char **path_data);
} RKEspeak;

static inline int rk_espeak_load(RKEspeak *e, const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) return 0;
#define RK_SYM(field, symbol) \
    if ((*(void **)&e->field = dlsym(h, symbol)) == NULL) return 0;
    RK_SYM(initializePath, "espeak_ng_InitializePath")
    RK_SYM(initialize, "espeak_ng_Initialize")
    RK_SYM(initializeOutput, "espeak_ng_InitializeOutput")
    RK_SYM(sampleRate, "espeak_ng_GetSampleRate")
    RK_SYM(setVoiceByName, "espeak_ng_SetVoiceByName")
    RK_SYM(synthesize, "espeak_ng_Synthesize")
    RK_SYM(statusMessage, "espeak_ng_GetStatusCodeMessage")
    RK_SYM(setSynthCallback, "espeak_SetSynthCallback")
    RK_SYM(listVoices, "espeak_ListVoices")
    RK_SYM(info, "espeak_Info")
#undef RK_SYM
    return 1;
}

// libopusenc and opusfile, declared here from their documented ABI (libopusenc.so.0,
// libopusfile.so.0; the request numbers are those of opus_defines.h and opusenc.h):
// their headers need the opus folder on the include path, which a system library
// target without pkg-config (and so without linking them) does not get.
typedef struct OggOpusEnc OggOpusEnc;
typedef struct OggOpusComments OggOpusComments;
typedef struct OggOpusFile OggOpusFile;

enum {
    RK_OPE_OK = 0,
    RK_OPUS_SET_BITRATE_REQUEST = 4002,
    RK_OPUS_SET_COMPLEXITY_REQUEST = 4010,
    RK_OPUS_SET_SIGNAL_REQUEST = 4024,
    RK_OPUS_SIGNAL_VOICE = 3001,
    RK_OPE_SET_SERIALNO_REQUEST = 14006,
};

typedef struct {
    OggOpusComments *(*commentsCreate)(void);
    void (*commentsDestroy)(OggOpusComments *comments);
    OggOpusEnc *(*createPull)(OggOpusComments *comments, int32_t rate, int channels, int family, int *error);
    int (*ctl)(OggOpusEnc *enc, int request, ...);
    int (*write)(OggOpusEnc *enc, const int16_t *pcm, int samples_per_channel);
    int (*getPage)(OggOpusEnc *enc, unsigned char **page, int32_t *len, int flush);
    int (*drain)(OggOpusEnc *enc);
    void (*destroy)(OggOpusEnc *enc);
    const char *(*strerror)(int error);
    const char *(*version)(void);
} RKOpusEnc;

static inline int rk_opusenc_load(RKOpusEnc *o, const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) return 0;
#define RK_SYM(field, symbol) \
    if ((*(void **)&o->field = dlsym(h, symbol)) == NULL) return 0;
    RK_SYM(commentsCreate, "ope_comments_create")
    RK_SYM(commentsDestroy, "ope_comments_destroy")
    RK_SYM(createPull, "ope_encoder_create_pull")
    RK_SYM(ctl, "ope_encoder_ctl")
    RK_SYM(write, "ope_encoder_write")
    RK_SYM(getPage, "ope_encoder_get_page")
    RK_SYM(drain, "ope_encoder_drain")
    RK_SYM(destroy, "ope_encoder_destroy")
    RK_SYM(strerror, "ope_strerror")
    RK_SYM(version, "ope_get_version_string")
#undef RK_SYM
    return 1;
}

// ope_encoder_ctl is variadic, which Swift cannot call: one int-valued request.
static inline int rk_opusenc_set(const RKOpusEnc *o, OggOpusEnc *enc, int request, int32_t value) {
    return o->ctl(enc, request, value);
}

typedef struct {
    OggOpusFile *(*openMemory)(const unsigned char *data, size_t size, int *error);
    int (*read)(OggOpusFile *of, int16_t *pcm, int buf_size, int *li);
    int (*channelCount)(const OggOpusFile *of, int li);
    int64_t (*pcmTotal)(const OggOpusFile *of, int li);
    void (*free)(OggOpusFile *of);
} RKOpusFile;

static inline int rk_opusfile_load(RKOpusFile *f, const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) return 0;
#define RK_SYM(field, symbol) \
    if ((*(void **)&f->field = dlsym(h, symbol)) == NULL) return 0;
    RK_SYM(openMemory, "op_open_memory")
    RK_SYM(read, "op_read")
    RK_SYM(channelCount, "op_channel_count")
    RK_SYM(pcmTotal, "op_pcm_total")
    RK_SYM(free, "op_free")
#undef RK_SYM
    return 1;
}
#endif
