// The Dimemas .dim reader and writer: what they accept, what they reject, and round trips.
#include <gtest/gtest.h>

#include <sstream>

#include "test_util.h"

namespace tareador {
namespace {

using testing::dim_header;
using testing::fixture;
using testing::read_file;
using testing::TempDir;
using trace::Record;
using trace::RecordType;

std::vector<Record> records(const trace::Trace& t, int task, int thread = 0) {
  std::vector<Record> out;
  auto stream = t.open(task, thread);
  Record r;
  while (stream->next(r)) out.push_back(r);
  return out;
}

// The message of the FormatError that reading all of `text` raises ("" if none).
std::string error_of(const TempDir& dir, const std::string& text) {
  try {
    auto t = trace::open_dimemas(dir.write("bad.dim", text));
    for (int task = 0; task < t->header().tasks(); ++task) records(*t, task);
  } catch (const trace::FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(Dimemas, ReadsTheSharedFixtureWithOffsets) {
  auto t = trace::open_dimemas(fixture("dimemas/pingpong.dim"));
  const trace::TraceHeader& h = t->header();
  EXPECT_EQ(h.name, "pingpong");
  EXPECT_EQ(h.tasks(), 2);
  ASSERT_EQ(h.communicators.size(), 1u);
  EXPECT_EQ(h.communicators[0].id, 1);
  EXPECT_EQ(h.communicators[0].tasks, (std::vector<int>{0, 1}));
  auto r0 = records(*t, 0);
  ASSERT_EQ(r0.size(), 4u);
  EXPECT_EQ(r0[0].type, RecordType::Burst);
  EXPECT_DOUBLE_EQ(r0[0].amount, 0.001);
  EXPECT_EQ(r0[1].type, RecordType::Send);
  EXPECT_EQ(r0[1].peer, 1);
  EXPECT_EQ(r0[1].bytes, 1000000);
  EXPECT_EQ(r0[1].tag, 1);
  EXPECT_EQ(r0[1].comm, 1);
  EXPECT_EQ(r0[1].flags, 0);
  EXPECT_EQ(r0[2].type, RecordType::Recv);
  EXPECT_EQ(r0[2].tag, 2);
  auto r1 = records(*t, 1);
  ASSERT_EQ(r1.size(), 4u);
  EXPECT_EQ(r1[1].type, RecordType::Recv);
}

TEST(Dimemas, ReadsTracesWithoutOffsets) {
  TempDir dir;
  auto t = trace::open_dimemas(
      dir.write("t.dim", dim_header(2) + "1:0:0:0.5\n2:0:0:1:-1:10:1:1:3\n\n1:1:0:0.25\n0:1:0\n"));
  auto r0 = records(*t, 0);
  ASSERT_EQ(r0.size(), 2u);
  EXPECT_EQ(r0[1].flags, trace::kImmediate | trace::kRendezvous);
  auto r1 = records(*t, 1);
  ASSERT_EQ(r1.size(), 2u);
  EXPECT_DOUBLE_EQ(r1[0].amount, 0.25);
  EXPECT_EQ(r1[1].type, RecordType::Call);  // the no-op: an MPI call without communication
  EXPECT_EQ(t->header().call_names.at(r1[1].event_value), trace::kNoopCall);
}

TEST(Dimemas, WaitsBecomeWaitsOnTheEarliestMatchingImmediateReceive) {
  TempDir dir;
  auto t = trace::open_dimemas(dir.write(
      "t.dim", dim_header(2) + "3:0:0:1:-1:10:5:1:1\n3:0:0:1:-1:20:5:1:1\n3:0:0:1:-1:10:5:1:2\n"
                               "3:0:0:1:-1:20:5:1:2\n"));
  auto r = records(*t, 0);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[2].type, RecordType::Wait);
  EXPECT_EQ(r[2].request, r[0].request);
  EXPECT_EQ(r[3].request, r[1].request);
  EXPECT_NE(r[0].request, r[1].request);
}

TEST(Dimemas, GlobalOpRootIsAFlagAndSynchronismIsOptional) {
  TempDir dir;
  auto t = trace::open_dimemas(dir.write(
      "t.dim", dim_header(2) + "10:0:0:1:1:1:0:8:8\n10:1:0:1:1:0:0:8:8:0\n10:1:0:1:1:0:0:0:0:2\n"));
  auto r0 = records(*t, 0);
  EXPECT_EQ(r0[0].op, trace::kBcast);
  EXPECT_EQ(r0[0].peer, 0);  // root
  auto r1 = records(*t, 1);
  EXPECT_EQ(r1[0].peer, -1);
  EXPECT_EQ(r1[0].flags, trace::kImmediate);
  EXPECT_EQ(r1[1].flags, trace::kCollectiveWait);
}

// Dimemas 5.5 reads MPI_Reduce's root field as the root's task id, not a flag.
TEST(Dimemas, ReduceRootIsATaskId) {
  TempDir dir;
  std::string body = "10:0:0:10:1:1:0:16:16\n10:1:0:10:1:1:0:16:0\n";
  auto t = trace::open_dimemas(dir.write("t.dim", dim_header(2) + body));
  EXPECT_EQ(records(*t, 0)[0].peer, -1);
  EXPECT_EQ(records(*t, 1)[0].peer, 1);  // root
  // Written back so: the root's task id, and -1 on the other members; after an empty burst,
  // without which Dimemas 5.5 never starts a thread whose first record communicates.
  std::string path = dir.path("copy.dim");
  trace::copy_trace(*t, *trace::make_dimemas_writer(path, t->header()));
  auto copy = trace::open_dimemas(path);
  EXPECT_EQ(records(*copy, 0)[0].type, trace::RecordType::Burst);
  EXPECT_EQ(records(*copy, 0)[0].amount, 0);
  EXPECT_EQ(records(*copy, 0)[1].peer, -1);
  EXPECT_EQ(records(*copy, 1)[1].peer, 1);
  std::string text = read_file(path);
  EXPECT_NE(text.find("1:0:0:0\n10:0:0:10:1:-1:0:16:16:1"), std::string::npos) << text;
  EXPECT_NE(text.find("1:1:0:0\n10:1:0:10:1:1:0:16:0:1"), std::string::npos) << text;
}

struct BadCase {
  const char* name;
  std::string text;
  const char* where;    // expected "file:line"
  const char* message;  // expected phrase
};

TEST(Dimemas, RejectsBadInputWithFileLineAndReason) {
  const std::string h = dim_header(2);  // 2 lines
  const std::vector<BadCase> cases = {
      {"not a trace", "hello\n", "bad.dim:1", "not a Dimemas trace"},
      {"unknown record", h + "7:0:0:1\n", "bad.dim:3", "unknown record type 7"},
      {"too few fields", h + "2:0:0:1:-1:10:1\n", "bad.dim:3", "missing field 'communicator'"},
      {"too many fields", h + "1:0:0:0.1:5\n", "bad.dim:3", "more fields than expected"},
      {"negative size", h + "1:0:0:0\n1:1:0:0\n2:1:0:0:-1:-5:1:1:0\n", "bad.dim:5",
       "'size' is negative"},
      {"negative burst", h + "1:0:0:-0.5\n", "bad.dim:3", "negative burst duration"},
      {"not a number", h + "1:0:0:abc\n", "bad.dim:3", "'duration' is not a number"},
      {"unknown communicator", h + "10:0:0:0:9:0:0:0:0\n", "bad.dim:3", "unknown communicator 9"},
      {"peer thread out of range", h + "2:0:0:1:3:10:1:1:0\n", "bad.dim:3",
       "destination thread 3 is not a thread of task 1"},
      {"peer out of range", h + "2:0:0:5:-1:10:1:1:0\n", "bad.dim:3",
       "destination task 5 is not a task"},
      {"bad sync", h + "2:0:0:1:-1:10:1:1:7\n", "bad.dim:3", "synchronism must be 0..3"},
      {"bad receive type", h + "3:0:0:1:-1:10:1:1:5\n", "bad.dim:3", "receive type must be"},
      {"wait without irecv", h + "3:0:0:1:-1:10:1:1:2\n", "bad.dim:3",
       "no earlier immediate receive"},
      {"unknown global op", h + "10:0:0:99:1:0:0:0:0\n", "bad.dim:3",
       "unknown global operation 99"},
      {"undeclared task", h + "1:4:0:0.1\n", "bad.dim:3", "the header does not declare"},
      {"split records", h + "1:0:0:0\n1:1:0:0\n1:0:0:0\n", "bad.dim:5", "not contiguous"},
      {"thread count mismatch", "#DIMEMAS:\"x\":0:2(1),0\n", "bad.dim:1", "2 tasks but 1"},
      {"bad offsets flag", "#DIMEMAS:\"x\":5:1(1),0\n", "bad.dim:1", "offsets flag must be 0 or 1"},
      {"offsets outside file", "#DIMEMAS:\"x\":1,9999:1(1),0\n1:0:0:0\n", "bad.dim:1",
       "is not inside the file"},
      {"unknown definition", "#DIMEMAS:\"x\":0:1(1),1\nd:9:1:1:0\n", "bad.dim:2",
       "unknown definition type 9"},
      {"communicator member", "#DIMEMAS:\"x\":0:1(1),1\nd:1:1:1:3\n", "bad.dim:2",
       "task 3 does not exist"},
  };
  TempDir dir;
  for (const BadCase& c : cases) {
    std::string error = error_of(dir, c.text);
    EXPECT_NE(error.find(c.where), std::string::npos) << c.name << ": " << error;
    EXPECT_NE(error.find(c.message), std::string::npos) << c.name << ": " << error;
  }
}

TEST(Dimemas, TruncatedFileIsAnErrorOrAShorterStreamNeverACrash) {
  std::string text = read_file(fixture("dimemas/ring.dim"));
  TempDir dir;
  // Cut the file at every length: each prefix must either read or fail with a FormatError.
  for (std::size_t cut = 0; cut < text.size(); cut += 7) {
    try {
      auto t = trace::open_dimemas(dir.write("cut.dim", text.substr(0, cut)));
      for (int task = 0; task < t->header().tasks(); ++task) records(*t, task);
    } catch (const trace::FormatError& e) {
      EXPECT_NE(std::string(e.what()).find("cut.dim"), std::string::npos);
    }
  }
}

TEST(Dimemas, ReadsALineLongerThanTheReadBuffer) {
  // The reader's buffer (64 KiB) grows for a longer line: a duration with 100,000 leading zeros.
  TempDir dir;
  const std::string body = "1:0:0:" + std::string(100000, '0') + ".5\n1:0:0:0.25\n";
  auto r = records(*trace::open_dimemas(dir.write("t.dim", dim_header(1) + body)), 0);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].amount, 0.5);
  EXPECT_EQ(r[1].amount, 0.25);
  EXPECT_NE(error_of(dir, dim_header(1) + body + "1:0:0:x\n").find("bad.dim:5:"),
            std::string::npos);
}

// Every field of every record of every stream of the .dim `text`, then the error that ends the
// reading ("" if none).
std::string read_all(const TempDir& dir, const std::string& text, bool prefetched = false) {
  std::ostringstream out;
  try {
    auto t = trace::open_dimemas(dir.write("all.dim", text));
    if (prefetched) t = trace::prefetch(std::move(t));
    for (int task = 0; task < t->header().tasks(); ++task) {
      auto stream = t->open(task, 0);
      for (Record r; stream->next(r);)
        out << int(r.type) << ' ' << int(r.flags) << ' ' << r.op << ' ' << r.peer << ' '
            << r.peer_thread << ' ' << r.comm << ' ' << r.tag << ' ' << r.bytes << ' '
            << r.bytes_recv << ' ' << r.request << ' ' << std::hexfloat << r.amount
            << std::defaultfloat << ' ' << r.event_type << ' ' << r.event_value << " @"
            << stream->mark() << '\n';
    }
  } catch (const trace::FormatError& e) {
    out << e.what();
  }
  return out.str();
}

// The reader takes most lines in one pass straight from its buffer, and the others (a '\r', an
// unusual field) field by field: both must read the same records and say the same errors.
TEST(Dimemas, ReadsLinesEndingInCrLfAsTheirLfTwins) {
  const std::vector<std::string> records = {
      "1:0:0:0.000011\n2:0:0:12:-1:65536:1:1:2\n3:0:0:12:-1:65536:1:1:1\n3:0:0:12:-1:65536:1:1:2\n"
      "1:0:0:5\n1:0:0:.5\n11:0:0:0.25\n1:0:0:00000000000000000000000000.125\n"
      "1:0:0:123456789012345\n1:0:0:12345678901234.5\n1:0:0:0.0000000000000000000001\n"
      "2:0:0:3:0:999999999999999999:-2147483648:1:0\n20:0:0:42:7\n0:0:0\n"
      "10:0:0:10:1:1:0:100:200\n10:0:0:10:1:1:0:100:200:0\n"
      "1:12:0:0.5\n2:12:0:0:-1:10:99:-7:3\n1:012:00:0.5\n1:12:0:1\n",
      // each a line the reader refuses
      "1:0:0:-0.5\n",
      "1:0:0:0.5:\n",
      "1:0:0:1234567890123456.5\n",
      "1:0:0:1e-5\n",
      "1:0:0:0.00000000000000000000001\n",
      "1:0:0:5.\n",
      "2:0:0:1:-1:10:1:1:2.5\n",
      "2:0:0:1:-1:10:1:1\n",
      "2:0:0:1:-1:10:1:1:2:0\n",
      "2:0:0:1:-1:1234567890123456789:1:1:0\n",
      "2:0:0:1:-1:12345678901234567890:1:1:0\n",
      "3:0:0:1:--1:10:1:1:0\n",
      "3:0:0:1::10:1:1:0\n",
      "0:0:0:0:0:0:0:0:0:0:0:0\n",
      "20:0:0:1:2\n99:0:0\n",
      "1:0:1:0.5\n",
      "1:1:0:0.5\n1:0:0:0.5\n",
  };
  TempDir dir;
  for (const std::string& body : records) {
    const std::string lf = dim_header(13) + body;
    std::string crlf;
    for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    // (the marks, offsets in the file, differ by the '\r's)
    auto without_marks = [](std::string text) {
      for (std::size_t at; (at = text.find(" @")) != std::string::npos;)
        text.erase(at, text.find('\n', at) - at);
      return text;
    };
    EXPECT_EQ(without_marks(read_all(dir, lf)), without_marks(read_all(dir, crlf))) << body;
  }
}

// The prefetcher reads many records of a stream at a call, into rings that wrap around: the
// records are the same, and an error comes after the records before it.
TEST(Dimemas, PrefetchedStreamsReadTheSameRecordsAndErrors) {
  std::string body;
  for (int task = 0; task < 2; ++task)
    for (int i = 0; i < 10000; ++i)
      body += "1:" + std::to_string(task) + ":0:0.0000" + std::to_string(i % 97 + 3) +
              "\n2:" + std::to_string(task) + ":0:" + std::to_string(1 - task) +
              ":-1:" + std::to_string(i) + ":1:1:0\n";
  const std::string bad = "2:1:0:0:-1:1:1:1:7\n";  // (synchronism 7)
  TempDir dir;
  for (const std::string& text : {dim_header(2) + body, dim_header(2) + body + bad}) {
    std::string direct = read_all(dir, text);
    EXPECT_EQ(read_all(dir, text, true), direct);
    EXPECT_GT(direct.size(), 1000000u);
  }
  EXPECT_NE(read_all(dir, dim_header(2) + body + bad, true).find("all.dim:40003: synchronism"),
            std::string::npos);
}

TEST(Dimemas, BurstDurationsReadAsTheNearestDouble) {
  TempDir dir;
  auto r = records(
      *trace::open_dimemas(dir.write(
          "t.dim", dim_header(1) + "1:0:0:0.000011\n1:0:0:0.1\n1:0:0:3\n"
                                   "1:0:0:123456.789012345\n1:0:0:0.3000000000000000444\n")),
      0);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].amount, 0.000011);
  EXPECT_EQ(r[1].amount, 0.1);
  EXPECT_EQ(r[2].amount, 3.0);
  EXPECT_EQ(r[3].amount, 123456.789012345);
  EXPECT_EQ(r[4].amount, 0.3000000000000000444);
}

TEST(Dimemas, OffsetsPointingElsewhereAreReported) {
  TempDir dir;
  // s:1 points at the records of task 0.
  const std::string records = "1:0:0:1\n1:1:0:2\n";
  const std::string head_shape = "#DIMEMAS:\"x\":1,NN:2(1,1),0\n";
  const std::size_t records_at = head_shape.size();
  std::string body = "#DIMEMAS:\"x\":1," + std::to_string(records_at + records.size()) +
                     ":2(1,1),0\n" + records + "s:0:" + std::to_string(records_at) +
                     "\ns:1:" + std::to_string(records_at) + "\n";
  std::string error = error_of(dir, body);
  EXPECT_NE(error.find("offset of task 1 thread 0 points to a record of task 0"), std::string::npos)
      << error;
}

TEST(Dimemas, WriterOutputReadsBackIdenticallyAndKeepsItsHeaderLength) {
  TempDir dir;
  auto original = trace::open_dimemas(fixture("dimemas/ring.dim"));
  std::string copy = dir.path("copy.dim");
  auto writer = trace::make_dimemas_writer(copy, original->header());
  trace::copy_trace(*original, *writer);
  std::string text = read_file(copy);
  std::string first_line = text.substr(0, text.find('\n'));
  EXPECT_EQ(first_line.rfind("#DIMEMAS:\"ring\":1,", 0), 0u) << first_line;
  // The offsets position is padded to a fixed width so the header can be rewritten in place.
  EXPECT_EQ(first_line.size(), std::string("#DIMEMAS:\"ring\":1,:4(1,1,1,1),1").size() + 15);

  auto again = trace::open_dimemas(copy);
  for (int task = 0; task < 4; ++task) {
    auto a = records(*original, task), b = records(*again, task);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].type, b[i].type);
      EXPECT_EQ(a[i].flags, b[i].flags);
      EXPECT_EQ(a[i].peer, b[i].peer);
      EXPECT_EQ(a[i].bytes, b[i].bytes);
      EXPECT_EQ(a[i].tag, b[i].tag);
      EXPECT_EQ(a[i].request, b[i].request);
      EXPECT_EQ(a[i].amount, b[i].amount);  // exactly: shortest round-trip text
    }
  }
}

// A validation's line from the trace's file name on (without the directory).
std::string from_file(const std::string& line) { return line.substr(line.find("v.dim:")); }

TEST(Dimemas, ValidatorReportsMismatchedCollectivesAndNotesAMessageNothingReceives) {
  // An eager send nothing receives is left over, as the run left it (a replay ends with it);
  // ranks that call different collectives are a problem.
  TempDir dir;
  auto t = trace::open_dimemas(dir.write(
      "v.dim", dim_header(2) + "2:0:0:1:-1:10:4:1:0\n10:0:0:0:1:0:0:0:0\n10:1:0:11:1:0:0:8:8\n"));
  trace::Validation found = trace::validate(*t);
  ASSERT_EQ(found.problems.size(), 1u);
  EXPECT_NE(found.problems[0].find("collective #0 is MPI_Allreduce but MPI_Barrier on rank 0"),
            std::string::npos)
      << found.problems[0];
  ASSERT_EQ(found.notes.size(), 1u);
  EXPECT_EQ(
      from_file(found.notes[0]),
      "v.dim:3: 1 send(s) but 0 receive(s) from rank 0 to rank 1 (tag 4, comm 1): nothing "
      "receives this message; a replay ends with it unmatched (nothing waited for it in the run "
      "either, or the trace left its other half out: see the rank's notes)");
}

TEST(Dimemas, ValidatorReportsOnlyTheUnmatchedReceivesAThreadWaitsFor) {
  // Rank 1 posts three receives nothing sends: an immediate one it never waits for (left over,
  // as the run left it), one it waits for and a blocking one (each would wait forever). A
  // rendezvous send to its own task, which nothing receives, waits forever too.
  TempDir dir;
  auto t = trace::open_dimemas(dir.write("v.dim", dim_header(2) +
                                                      "3:1:0:0:-1:8:1:1:1\n3:1:0:0:-1:8:2:1:1\n"
                                                      "3:1:0:0:-1:8:2:1:2\n3:1:0:0:-1:8:3:1:0\n"
                                                      "2:0:0:0:-1:8:5:1:0\n"));
  trace::Validation found = trace::validate(*t);
  ASSERT_EQ(found.problems.size(), 3u);
  EXPECT_EQ(from_file(found.problems[0]),
            "v.dim:7: 1 send(s) but 0 receive(s) from rank 0 to rank 0 (tag 5, comm 1): its "
            "thread waits for a receive that never comes");
  EXPECT_EQ(from_file(found.problems[1]),
            "v.dim:4: 0 send(s) but 1 receive(s) from rank 0 to rank 1 (tag 2, comm 1): its "
            "thread waits for a message that never comes");
  EXPECT_NE(found.problems[2].find("v.dim:6: 0 send(s) but 1 receive(s) from rank 0 to rank 1 "
                                   "(tag 3, comm 1): its thread waits"),
            std::string::npos)
      << found.problems[2];
  ASSERT_EQ(found.notes.size(), 1u);
  EXPECT_NE(found.notes[0].find("v.dim:3: an immediate receive from rank 0 to rank 1 (tag 1, "
                                "comm 1) that nothing waits for"),
            std::string::npos)
      << found.notes[0];
}

TEST(Dimemas, ValidatorReportsATruncatedMessageAtItsReceiveAndItsSend) {
  // Rank 1 receives the two messages of tag 4 into 1000 bytes (the first fits) and into 8
  // bytes: the second, of 10 bytes, is truncated (an MPI error). A larger receive is fine.
  TempDir dir;
  auto t = trace::open_dimemas(
      dir.write("v.dim", dim_header(2) + "2:0:0:1:-1:1000:4:1:0\n2:0:0:1:-1:10:4:1:0\n"
                                         "2:0:0:1:-1:10:5:1:0\n3:1:0:0:-1:1000:4:1:0\n"
                                         "3:1:0:0:-1:8:4:1:0\n3:1:0:0:-1:4096:5:1:0\n"));
  auto problems = trace::validate(*t).problems;
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("v.dim:7: receive of 8 bytes matches a message of 10 bytes sent at "),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[0].find("v.dim:4: the message is truncated"), std::string::npos)
      << problems[0];
}

TEST(Dimemas, ValidatorPairsMessagesBetweenThreads) {
  // Thread 1 sends thread 0 a message of 8 bytes, thread 2 one of 100 bytes, with the same tag:
  // each receive of thread 0 names its sender, so only the receive from thread 2 truncates.
  TempDir dir;
  auto t = trace::open_dimemas(
      dir.write("v.dim",
                "#DIMEMAS:\"t\":0:1(3),1\nd:1:1:1:0\n"
                "3:0:0:0:2:8:1:1:0\n3:0:0:0:1:8:1:1:0\n2:0:1:0:0:8:1:1:2\n2:0:2:0:0:100:1:1:2\n"));
  auto problems = trace::validate(*t).problems;
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("v.dim:3: receive of 8 bytes matches a message of 100 bytes"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[0].find("v.dim:6: the message is truncated"), std::string::npos)
      << problems[0];
}

// ---- --dim keeps the prediction ------------------------------------------------------------

// Replays `t` on `m`, and the .dim `replay --dim` writes of it: the same time, to 1 ns.
void expect_export_keeps_time(const trace::Trace& t, const replay::Machine& m,
                              const std::string& what) {
  TempDir dir;
  auto writer = trace::make_dimemas_writer(dir.path("copy.dim"), t.header());
  trace::copy_trace(t, *writer);
  auto copy = trace::open_dimemas(dir.path("copy.dim"));
  EXPECT_NEAR(replay::simulate(*copy, m).total_time, replay::simulate(t, m).total_time, 1e-9)
      << what;
}

// Dimemas 5.5 takes a collective on communicator 0 for a synchronisation of accelerators and
// skips it (no time, no synchronisation). The native sets' MPI_COMM_WORLD is 0: it is written
// as the lowest id they do not use, and a .dim's collective on communicator 0 reads as a no-op.
TEST(Dimemas, CommunicatorZeroIsWrittenAsAnUnusedIdAndItsCollectivesReadAsDimemasSkipsThem) {
  TempDir dir;
  const std::string comms =
      "\n[[communicator]]\nid = 0\ntasks = [0, 1]\n"
      "\n[[communicator]]\nid = 1\ntasks = [0]\n";
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"w\"\nranks = 2\n"
            "mips = 1000.0\nkinds = [\"authentic\"]\n");
  dir.write("set/rank-0.toml", "rank = 0\nstatus = \"complete\"\nopaque_calls = []\n" + comms);
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"complete\"\nopaque_calls = []\n"
            "\n[[communicator]]\nid = 0\ntasks = [0, 1]\n");
  dir.write("set/authentic.0.trc",
            "# tareador stream v1 kind=authentic rank=0\ncpu 1000\n"
            "send 1 5 0 4096 eager\ncoll MPI_Allreduce 0 -1 8 8\nend\n");
  dir.write("set/authentic.1.trc",
            "# tareador stream v1 kind=authentic rank=1\ncpu 3000000\n"
            "recv 0 5 0 4096\ncoll MPI_Allreduce 0 -1 8 8\nend\n");
  auto set = trace::open_traces(dir.path("set"));
  ASSERT_EQ(set.size(), 1u);
  auto writer = trace::make_dimemas_writer(dir.path("w.dim"), set[0]->header());
  trace::copy_trace(*set[0], *writer);
  std::string text = read_file(dir.path("w.dim"));
  EXPECT_NE(text.find("\nd:1:2:2:0:1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nd:1:1:1:0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n2:0:0:1:-1:4096:5:2:0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n10:1:0:11:2:0:0:8:8:1\n"), std::string::npos) << text;
  EXPECT_EQ(text.find(":0:0:8:8:1\n10"), std::string::npos);
  expect_export_keeps_time(*set[0], testing::machine(2, 250, 5e-6), "communicator 0");

  auto t = trace::open_dimemas(dir.write(
      "z.dim", dim_header(2) + "1:0:0:0.001\n10:0:0:11:0:0:0:8:8:1\n\n10:1:0:11:0:0:0:8:8:1\n"));
  auto r0 = records(*t, 0);
  ASSERT_EQ(r0.size(), 2u);
  EXPECT_EQ(r0[1].type, RecordType::Call);
  EXPECT_NEAR(replay::simulate(*t, testing::machine(2, 250, 5e-6)).total_time, 0.001, 1e-12);
}

// A set's non-blocking collectives export with Dimemas' synchronism (0 at the call, 2 at the
// wait), and a .dim's read into a set get requests of their own; both keep the replayed time.
TEST(Dimemas, NonBlockingCollectivesExportWithTheirWaits) {
  TempDir dir;
  auto set = trace::open_traces(
      testing::two_rank_set(dir, "icoll MPI_Ibarrier 1 -1 0 0 4\ncpu 1000000\nwait 4\n",
                            "cpu 2000000\nicoll MPI_Ibarrier 1 -1 0 0 9\nwait 9\n"));
  ASSERT_EQ(set.size(), 1u);
  trace::copy_trace(*set[0], *trace::make_dimemas_writer(dir.path("w.dim"), set[0]->header()));
  std::string text = read_file(dir.path("w.dim"));
  EXPECT_NE(text.find("\n10:0:0:0:1:0:0:0:0:0\n1:0:0:0.001"), std::string::npos) << text;
  EXPECT_NE(text.find("\n10:0:0:0:1:0:0:0:0:2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n10:1:0:0:1:0:0:0:0:2\n"), std::string::npos) << text;
  expect_export_keeps_time(*set[0], testing::machine(2, 250, 5e-6), "non-blocking collectives");

  auto dim = trace::open_dimemas(dir.path("w.dim"));
  trace::TraceHeader header = dim->header();
  header.kind = "authentic";
  header.mips = 1000;
  trace::copy_trace(*dim, *trace::make_native_writer(dir.path("back"), header));
  std::string stream = read_file(dir.path("back/authentic.0.trc"));
  EXPECT_NE(stream.find("icoll MPI_Barrier 1 -1 0 0 4611686018427387905\ncpu 1000000\n"
                        "wait 4611686018427387905\n"),
            std::string::npos)
      << stream;
  auto back = trace::open_traces(dir.path("back"));
  EXPECT_NEAR(replay::simulate(*back[0], testing::machine(2, 250, 5e-6)).total_time,
              replay::simulate(*set[0], testing::machine(2, 250, 5e-6)).total_time, 1e-9);
}

TEST(Dimemas, AnExportWhoseCollectiveWaitsAreOutOfOrderSaysSo) {
  // Rank 0 waits for its second barrier first: a Dimemas wait names no collective.
  TempDir dir;
  auto set = trace::open_traces(testing::two_rank_set(
      dir, "icoll MPI_Ibarrier 1 -1 0 0 4\nicoll MPI_Ibarrier 1 -1 0 0 5\nwait 5\nwait 4\n",
      "icoll MPI_Ibarrier 1 -1 0 0 9\nicoll MPI_Ibarrier 1 -1 0 0 10\nwait 9\nwait 10\n"));
  ::testing::internal::CaptureStderr();
  trace::copy_trace(*set[0], *trace::make_dimemas_writer(dir.path("w.dim"), set[0]->header()));
  std::string notes = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(notes.find("w.dim: 1 waits for non-blocking collectives wait for one started after "
                       "another still pending"),
            std::string::npos)
      << notes;
}

TEST(Dimemas, ImmediateCollectivesQueuedForOneBusAsDimemasTimesThem) {
  // Each rank starts a barrier and an allreduce on a communicator of its own (MPI_COMM_SELF),
  // waits for both, then joins a Reduce; ranks 0 and 2 compute 18 ms first, and rank 0 computes
  // 0.73 us between its two starts. On one bus the collectives queue for it. As Dimemas 5.5
  // does, a thread goes on at once after starting one (its second queues before the other
  // threads'), and a collective's duration counts its communicator's arrivals when it gets the
  // bus, which the end of one of them empties: rank 0's allreduce, granted after its barrier
  // ended, takes no time. (Values: Dimemas 5.5 on the same trace and machine.)
  const std::string comms = "d:1:4096:1:0\nd:1:8192:1:1\nd:1:12288:1:2\nd:1:16384:1:3\n";
  auto rank = [](int r, bool pause) {
    std::string c = std::to_string(4096 * (r + 1)), t = std::to_string(r);
    std::string text = r % 2 == 0 ? "1:" + t + ":0:0.018006304\n" : "";
    text += "10:" + t + ":0:0:" + c + ":0:0:0:0:0\n";
    if (pause && r == 0) text += "1:" + t + ":0:0.00000073\n";
    text += "10:" + t + ":0:11:" + c + ":0:0:8:8:0\n10:" + t + ":0:0:" + c + ":0:0:0:0:2\n10:" + t +
            ":0:11:" + c + ":0:0:8:8:2\n";
    return text + "10:" + t + ":0:10:1:" + (r == 0 ? "0:0:8:8" : "-1:0:8:0") + ":1\n";
  };
  replay::Machine bus = replay::load_machine(fixture("dimemas/cfg_4n_1bus.cfg"));
  // Two ranks per node of one core: on its core too a thread goes on at once after starting
  // one, so each rank's two collectives queue together (ranks 0 and 2, then 1 and 3 once the
  // others wait), and each is granted before the other ends: none is free.
  replay::Machine shared = bus;
  replay::apply_override(shared, "tasks_per_node=2");
  for (bool pause : {true, false}) {
    TempDir dir;
    std::string text = "#DIMEMAS:\"t\":0,0:4(1,1,1,1),5\nd:1:1:4:0:1:2:3\n" + comms;
    for (int r = 0; r < 4; ++r) text += rank(r, pause);
    auto t = trace::open_dimemas(dir.write("t.dim", text));
    const char* with = pause ? "with" : "without";
    EXPECT_NEAR(replay::simulate(*t, bus).total_time, pause ? 0.018046426 : 0.018056487, 1e-9)
        << with << " rank 0's pause";
    EXPECT_NEAR(replay::simulate(*t, shared).total_time, pause ? 0.018086548 : 0.018096609, 1e-9)
        << with << " rank 0's pause, on shared cores";
  }
}

TEST(Dimemas, ExportingEveryExampleKeepsItsReplayedTime) {
  const std::string examples = std::string(TESTS_DIR) + "/../examples/";
  for (const char* name : {"pingpong", "pingpong_rdv", "ring", "ring_eq", "late_s0", "late_s1"})
    for (const char* config : {"cfg_4n_nobus", "cfg_4n_1bus"})
      expect_export_keeps_time(
          *trace::open_dimemas(fixture("dimemas/" + std::string(name) + ".dim")),
          replay::load_machine(fixture("dimemas/" + std::string(config) + ".cfg")),
          std::string(name) + " on " + config);
  replay::Machine marenostrum = replay::load_machine(examples + "marenostrum.cfg");
  auto jacobi = trace::open_dimemas(examples + "traces/jacobi16.dim");
  expect_export_keeps_time(*jacobi, marenostrum, "jacobi16");
  replay::apply_override(marenostrum, "cores=1");  // four ranks take turns on each core
  expect_export_keeps_time(*jacobi, marenostrum, "jacobi16 on one core per node");
  expect_export_keeps_time(*trace::open_dimemas(fixture("tareador-original/3dfft_tareador.dim")),
                           replay::load_machine(fixture("tareador-original/cfg_1n4c.cfg")),
                           "3dfft_tareador");
  // The sweep set: immediate sends and their waits. With eager_limit=0 every send is a
  // rendezvous; with one core for both ranks, their waits must not change how they take turns.
  replay::Machine sweep = replay::load_machine(fixture("sweep/machine.toml"));
  for (const char* setting : {"eager_limit=-1", "eager_limit=0", "tasks_per_node=2"}) {
    replay::apply_override(sweep, setting);
    for (const auto& t : trace::open_traces(fixture("sweep/set")))
      expect_export_keeps_time(*t, sweep, "sweep set " + t->header().kind + ", " + setting);
  }
}

}  // namespace
}  // namespace tareador
