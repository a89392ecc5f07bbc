#include "rapidjson_oracle.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cstdlib>

namespace iopddl::fuzz {
namespace {

struct Recorder : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Recorder> {
  JsonEvents* ev;
  explicit Recorder(JsonEvents* e) : ev(e) {}
  bool Null() { ev->push_back("n"); return true; }
  bool Bool(bool b) { ev->push_back(b ? "t" : "f"); return true; }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) { ev->push_back("N" + std::string(s, n)); return true; }
  bool String(const char* s, rapidjson::SizeType n, bool) { ev->push_back("S" + std::string(s, n)); return true; }
  bool Key(const char* s, rapidjson::SizeType n, bool) { ev->push_back("K" + std::string(s, n)); return true; }
  bool StartObject() { ev->push_back("{"); return true; }
  bool EndObject(rapidjson::SizeType) { ev->push_back("}"); return true; }
  bool StartArray() { ev->push_back("["); return true; }
  bool EndArray(rapidjson::SizeType) { ev->push_back("]"); return true; }
  // With kParseNumbersAsStringsFlag no number reaches Int(), Double() etc.
  bool Default() { std::abort(); }
};

}  // namespace

OracleResult rapidjson_parse(const std::string& text, JsonEvents* events) {
  Recorder rec(events);
  rapidjson::MemoryStream ms(text.data(), text.size());
  rapidjson::Reader reader;
  constexpr unsigned kFlags =
      rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
  const rapidjson::ParseResult r = reader.Parse<kFlags>(ms, rec);
  OracleResult out;
  out.ok = !r.IsError();
  out.number_too_big = r.Code() == rapidjson::kParseErrorNumberTooBig;
  out.offset = r.Offset();
  if (!out.ok) out.error = rapidjson::GetParseError_En(r.Code());
  return out;
}

}  // namespace iopddl::fuzz
