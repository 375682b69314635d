// The native trace set: writer, reader, manifests and their errors.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_util.h"

namespace tareador {
namespace {

using testing::fixture;
using testing::TempDir;
using trace::Record;
using trace::RecordType;

std::vector<Record> records(const trace::Trace& t, int task) {
  std::vector<Record> out;
  auto stream = t.open(task, 0);
  Record r;
  while (stream->next(r)) out.push_back(r);
  return out;
}

// A hand-written two-rank set; `stream1` is rank 1's authentic stream.
std::string make_set(const TempDir& dir, const std::string& stream1,
                     const std::string& manifest_extra = "") {
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"demo\"\nranks = 2\n"
            "mips = 1000.0\nkinds = [\"authentic\"]\n" +
                manifest_extra);
  const std::string comm = "\n[[communicator]]\nid = 1\ntasks = [0, 1]\n";
  dir.write("set/rank-0.toml", "rank = 0\nstatus = \"complete\"\nopaque_calls = []\n" + comm);
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"complete\"\nopaque_calls = [\"MPI_Comm_rank\"]\n" + comm);
  dir.write("set/authentic.0.trc",
            "# tareador stream v1 kind=authentic rank=0\ncpu 2000000\nisend 1 10 1 4096 eager 7\n"
            "wait 7\ncoll MPI_Allreduce 1 -1 8 8\nend\n");
  dir.write("set/authentic.1.trc", stream1);
  return dir.path("set");
}

const char* kRank1 =
    "# tareador stream v1 kind=authentic rank=1\n"
    "call MPI_Comm_rank\n"
    "irecv 0 10 1 4096 3\n"
    "cpu 1000\n"
    "wait 3\n"
    "coll MPI_Allreduce 1 -1 8 8\n"
    "end\n";

TEST(Native, ReadsAHandWrittenSet) {
  TempDir dir;
  auto traces = trace::open_traces(make_set(dir, kRank1));
  ASSERT_EQ(traces.size(), 1u);
  const trace::TraceHeader& h = traces[0]->header();
  EXPECT_EQ(h.name, "demo");
  EXPECT_EQ(h.kind, "authentic");
  EXPECT_EQ(h.tasks(), 2);
  EXPECT_DOUBLE_EQ(h.mips, 1000.0);
  ASSERT_EQ(h.call_names, std::vector<std::string>{"MPI_Comm_rank"});
  auto r1 = records(*traces[0], 1);
  ASSERT_EQ(r1.size(), 5u);
  EXPECT_EQ(r1[0].type, RecordType::Call);
  EXPECT_EQ(r1[1].type, RecordType::Recv);
  EXPECT_TRUE(r1[1].immediate());
  EXPECT_EQ(r1[1].request, 3u);
  EXPECT_EQ(r1[2].flags, trace::kInstructions);
  EXPECT_EQ(r1[2].amount, 1000);
  EXPECT_EQ(r1[3].type, RecordType::Wait);
  EXPECT_EQ(r1[4].op, trace::kAllreduce);
}

// A non-blocking collective keeps its name in the stream and is the global operation of its
// blocking one (blocking in a `coll` record, started with a request in an `icoll` one), as is a
// persistent one (MPI_Allreduce_init, each start an `icoll`); a name that only looks like one
// is still unknown.
TEST(Native, NonBlockingCollectivesReadAsTheirBlockingOnes) {
  EXPECT_EQ(trace::global_op_from_name("MPI_Iallreduce"), trace::kAllreduce);
  EXPECT_EQ(trace::global_op_from_name("MPI_Ibarrier"), trace::kBarrier);
  EXPECT_EQ(trace::global_op_from_name("MPI_Iexscan"), trace::kScan);
  EXPECT_EQ(trace::global_op_from_name("MPI_Ireduce_scatter_block"), trace::kReduceScatterBlock);
  EXPECT_EQ(trace::global_op_from_name("MPI_I"), -1);
  EXPECT_EQ(trace::global_op_from_name("MPI_Iiallreduce"), -1);
  EXPECT_EQ(trace::global_op_from_name("MPI_Allreduce_init"), trace::kAllreduce);
  EXPECT_EQ(trace::global_op_from_name("MPI_Exscan_init"), trace::kScan);
  EXPECT_EQ(trace::global_op_from_name("MPI_Iallreduce_init"), -1);
  EXPECT_EQ(trace::global_op_from_name("MPI__init"), -1);
  TempDir dir;
  std::string rank1 = kRank1;
  rank1.replace(rank1.find("coll MPI_Allreduce"), 18, "coll MPI_Iallreduce");
  auto traces = trace::open_traces(make_set(dir, rank1));
  auto r1 = records(*traces[0], 1);
  ASSERT_EQ(r1.size(), 5u);
  EXPECT_EQ(r1[4].type, RecordType::GlobalOp);
  EXPECT_EQ(r1[4].op, trace::kAllreduce);
  EXPECT_FALSE(r1[4].immediate());
  rank1.replace(rank1.find("coll MPI_Iallreduce 1 -1 8 8"), 28,
                "icoll MPI_Iallreduce 1 -1 8 8 4\nwait 4");
  traces = trace::open_traces(make_set(dir, rank1));
  r1 = records(*traces[0], 1);
  ASSERT_EQ(r1.size(), 6u);
  EXPECT_EQ(r1[4].op, trace::kAllreduce);
  EXPECT_TRUE(r1[4].immediate());
  EXPECT_EQ(r1[4].request, 4u);
  EXPECT_EQ(r1[5].type, RecordType::Wait);
  EXPECT_EQ(r1[5].request, 4u);
  // A request the stream has outstanding already is an error at its line.
  rank1.replace(rank1.find("wait 4"), 6, "icoll MPI_Ibarrier 1 -1 0 0 4\nwait 4");
  EXPECT_THROW(
      {
        traces = trace::open_traces(make_set(dir, rank1));
        records(*traces[0], 1);
      },
      trace::FormatError);
}

// The speculative kind (docs/tool.md, "Speculative dataflow"): a chunk's data, then its commit
// on the same channel (requests from 2^60); a confirmation of no bytes matches the second
// receive, of the chunk's size.
// The rank manifest's [speculation] table is the tool's report, which readers pass over.
TEST(Native, ReadsTheSpeculativeKindWithItsCommits) {
  TempDir dir;
  std::string set = make_set(dir, kRank1, "");
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 2\nname = \"demo\"\nranks = 2\n"
            "mips = 1000.0\nkinds = [\"authentic\", \"overlap-speculative\"]\n");
  dir.write("set/rank-0.toml",
            "rank = 0\nstatus = \"complete\"\nopaque_calls = []\n\n[speculation]\nchunks = 1\n"
            "sent_ahead = 1\nmisspeculated = 0\nstalls = 0\n\n[[communicator]]\nid = 1\n"
            "tasks = [0, 1]\n");
  dir.write("set/overlap-speculative.0.trc",
            "# tareador stream v1 kind=overlap-speculative rank=0\ncpu 1000000\n"
            "isend 1 40 1 4096 eager 1\nisend 1 40 1 0 eager 1152921504606846977\n"
            "cpu 1000000\nwait 1 1152921504606846977\ncoll MPI_Allreduce 1 -1 8 8\nend\n");
  dir.write("set/overlap-speculative.1.trc",
            "# tareador stream v1 kind=overlap-speculative rank=1\ncall MPI_Comm_rank\n"
            "irecv 0 40 1 4096 3\nirecv 0 40 1 4096 4\ncpu 1000\nwait 3 4\n"
            "coll MPI_Allreduce 1 -1 8 8\nend\n");
  auto traces = trace::open_traces(set);
  ASSERT_EQ(traces.size(), 2u);
  EXPECT_EQ(traces[1]->header().kind, "overlap-speculative");
  auto r0 = records(*traces[1], 0);
  ASSERT_EQ(r0.size(), 7u);  // the wait for data and commit: two records, the second joined
  EXPECT_EQ(r0[2].tag, 40);
  EXPECT_EQ(r0[2].bytes, 0);
  EXPECT_EQ(r0[5].request, (std::uint64_t{1} << 60) + 1);
  EXPECT_EQ(r0[5].flags, trace::kJoinedWait);
  EXPECT_EQ(trace::validate(*traces[1]).problems, std::vector<std::string>{});
}

// A receive takes its message at its wait, as the replay (and Dimemas) match them: an
// immediate receive nothing waits for (MPI_Cancel'led, as Quicksilver does at each cycle's end)
// is a note, and the receives posted after it pair with the messages they got in the run.
TEST(Native, ValidatorPairsImmediateReceivesAtTheirWaits) {
  TempDir dir;
  std::string set = make_set(dir,
                             "# tareador stream v1 kind=authentic rank=1\n"
                             "irecv 0 10 1 16 1\ncpu 1000\n"  // cancelled: never waited for
                             "irecv 0 10 1 8 2\nwait 2\nirecv 0 10 1 16 3\nwait 3\nend\n");
  dir.write("set/authentic.0.trc",
            "# tareador stream v1 kind=authentic rank=0\ncpu 2000\nsend 1 10 1 8 eager\n"
            "send 1 10 1 16 eager\nend\n");
  auto traces = trace::open_traces(set);
  trace::Validation found = trace::validate(*traces[0]);
  EXPECT_EQ(found.problems, std::vector<std::string>{});
  ASSERT_EQ(found.notes.size(), 1u);
  EXPECT_NE(found.notes[0].find("authentic.1.trc:2: an immediate receive from rank 0 to rank 1 "
                                "(tag 10, comm 1) that nothing waits for"),
            std::string::npos)
      << found.notes[0];
  EXPECT_EQ(replay::simulate(*traces[0], testing::machine(2, 250, 5e-6)).messages,
            2u);  // runs to the end

  // A rank that died before its wait: the truncation says so, the receive is no note.
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"running\"\nopaque_calls = []\n"
            "\n[[communicator]]\nid = 1\ntasks = [0, 1]\n");
  dir.write("set/authentic.1.trc",
            "# tareador stream v1 kind=authentic rank=1\nirecv 0 10 1 8 2\ncpu 1000\n");
  trace::Validation died = trace::validate(*trace::open_traces(set)[0]);
  EXPECT_EQ(died.problems, std::vector<std::string>{});
  EXPECT_EQ(died.notes, std::vector<std::string>{});
}

// The overlap kinds break a non-blocking collective into point-to-point transfers at its wait
// (negative tags): rank 0 receives, before its wait, what rank 1 sends after its own, and the
// replay deadlocks. Its report says why and what keeps the collective whole; a deadlock on
// ordinary messages (the authentic kind here) does not.
TEST(Native, ADeadlockOnACollectivesTransfersSaysItWasBrokenUpAtItsWait) {
  TempDir dir;
  std::string set =
      make_set(dir, "# tareador stream v1 kind=authentic rank=1\nrecv 0 99 1 8\nend\n");
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"demo\"\nranks = 2\n"
            "mips = 1000.0\nkinds = [\"authentic\", \"overlap-real\", \"overlap-ideal\"]\n");
  dir.write("set/overlap-real.0.trc",
            "# tareador stream v1 kind=overlap-real rank=0\nrecv 1 3 1 4\nrecv 1 -1 1 4\n"
            "send 1 -1 1 4 eager\nend\n");
  dir.write("set/overlap-real.1.trc",
            "# tareador stream v1 kind=overlap-real rank=1\nsend 0 -1 1 4 eager\n"
            "recv 0 -1 1 4\nsend 0 3 1 4 eager\nend\n");
  // The same on a neighbourhood collective's transfers, which are transfers in every kind.
  dir.write("set/overlap-ideal.0.trc",
            "# tareador stream v1 kind=overlap-ideal rank=0\nrecv 1 3 1 4\n"
            "recv 1 -16777216 1 4\nsend 1 -16777216 1 4 eager\nend\n");
  dir.write("set/overlap-ideal.1.trc",
            "# tareador stream v1 kind=overlap-ideal rank=1\nsend 0 -16777216 1 4 eager\n"
            "recv 0 -16777216 1 4\nsend 0 3 1 4 eager\nend\n");
  auto traces = trace::open_traces(set);
  ASSERT_EQ(traces.size(), 3u);
  auto report = [](const trace::Trace& t) {
    try {
      replay::simulate(t, testing::machine(2, 250, 5e-6));
    } catch (const replay::DeadlockError& e) {
      return std::string(e.what());
    }
    return std::string("no deadlock");
  };
  std::string authentic = report(*traces[0]), overlap = report(*traces[1]);
  EXPECT_NE(authentic.find("deadlock"), std::string::npos) << authentic;
  EXPECT_EQ(authentic.find("--collectives=keep"), std::string::npos) << authentic;
  EXPECT_NE(overlap.find("overlap-real.1.trc:3"), std::string::npos) << overlap;
  EXPECT_NE(overlap.find("hint: a thread waits for a transfer of a collective (a negative tag): "
                         "the trace breaks collectives into point-to-point transfers (tareador's "
                         "overlap kinds and authentic-p2p do, a non-blocking one at its wait)"),
            std::string::npos)
      << overlap;
  EXPECT_NE(overlap.find("tracing with --collectives=keep keeps collectives whole"),
            std::string::npos)
      << overlap;
  std::string neighbourhood = report(*traces[2]);
  EXPECT_NE(neighbourhood.find("overlap-ideal.1.trc:3"), std::string::npos) << neighbourhood;
  EXPECT_EQ(neighbourhood.find("--collectives=keep"), std::string::npos) << neighbourhood;
}

TEST(Native, InstructionBurstsReplayAtTheManifestMipsRate) {
  TempDir dir;
  auto traces = trace::open_traces(make_set(dir, kRank1));
  replay::Machine m = testing::machine(2, 250, 5e-6);
  replay::Result r = replay::simulate(*traces[0], m);
  // 2e6 instructions at 1000 MIPS = 2 ms before the send.
  double message = 0.002 + 5e-6 + testing::transfer(4096, 250);
  double allreduce = 2 * (5e-6 + testing::transfer(8, 250));
  EXPECT_NEAR(r.total_time, message + allreduce, 1e-12);
  m.mips = 2000;  // --set mips=2000 overrides the manifest
  r = replay::simulate(*traces[0], m);
  EXPECT_NEAR(r.ranks[0].compute, 0.001, 1e-12);
}

// A trace set keeps what the run did: rank 1's blocking send to itself went before its receive
// (MPI buffered it). Dimemas 5.5 makes any send to self a rendezvous, and stops there; so does
// replay reading the .dim export of the same set (fixture self_send.dim).
TEST(Native, ABlockingSendToSelfThatMpiBufferedGoesAhead) {
  TempDir dir;
  auto traces = trace::open_traces(
      make_set(dir,
               "send 1 5 1 64 eager\nrecv 1 5 1 64\nirecv 0 10 1 4096 3\nwait 3\n"
               "coll MPI_Allreduce 1 -1 8 8\nend\n"));
  replay::Result r;
  ASSERT_NO_THROW(r = replay::simulate(*traces[0], testing::machine(2, 250, 5e-6)));
  double message = 0.002 + 5e-6 + testing::transfer(4096, 250);
  double allreduce = 2 * (5e-6 + testing::transfer(8, 250));
  EXPECT_NEAR(r.total_time, message + allreduce, 1e-12);
}

TEST(Native, WaitallListsSeveralRequestsAndCostsOneLatency) {
  TempDir dir;
  auto traces = trace::open_traces(make_set(
      dir,
      "irecv 0 10 1 4096 3\nirecv 0 11 1 4096 4\nwait 3 4\ncoll MPI_Allreduce 1 -1 8 8\nend\n"));
  auto r1 = records(*traces[0], 1);
  ASSERT_EQ(r1.size(), 5u);
  EXPECT_EQ(r1[2].request, 3u);
  EXPECT_EQ(r1[2].flags, 0);
  EXPECT_EQ(r1[3].request, 4u);
  EXPECT_EQ(r1[3].flags, trace::kJoinedWait);
}

TEST(Native, AnEagerSendWaitedForBeforeItsTransferEndsCompletesNothingElse) {
  // Rank 0 waits for its eager isend at once (complete), then for a receive that only a late
  // message satisfies, then computes. The first transfer ending (after 3.8 ms) must not
  // complete that receive (its request took the freed request's place).
  TempDir dir;
  std::string set =
      make_set(dir, "cpu 5000000\nsend 0 2 1 8 eager\nirecv 0 10 1 1048576 1\nwait 1\nend\n");
  dir.write("set/authentic.0.trc",
            "isend 1 10 1 1048576 eager 7\nwait 7\nirecv 1 2 1 8 8\nwait 8\ncpu 10000000\n"
            "end\n");
  auto traces = trace::open_traces(set);
  replay::Machine m = testing::machine(2, 250, 5e-6);
  replay::Result r = replay::simulate(*traces[0], m);
  // Rank 1's message leaves after 5 ms of computing and its latency; rank 0 then computes 10 ms.
  EXPECT_NEAR(r.ranks[0].end, 0.005 + 5e-6 + testing::transfer(8, 250) + 0.010, 1e-12);
}

TEST(Native, RejectsBadStreamsWithFileAndLine) {
  struct Case {
    std::string stream;
    const char* where;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"cpu 10\nfrobnicate 3\nend\n", "authentic.1.trc:2", "unknown record 'frobnicate'"},
      {"cpu -3\nend\n", "authentic.1.trc:1", "'instructions' is not an integer"},
      {"send 0 1 1 -8 eager\nend\n", "authentic.1.trc:1", "'bytes' is negative"},
      {"send 0 1 1 8\nend\n", "authentic.1.trc:1", "missing field 'mode'"},
      {"send 0 1 1 8 fast\nend\n", "authentic.1.trc:1", "unknown send mode 'fast'"},
      {"send 5 1 1 8 eager\nend\n", "authentic.1.trc:1", "destination 5 is not a rank"},
      {"send 0 1 4 8 eager\nend\n", "authentic.1.trc:1", "unknown communicator 4"},
      {"wait 9\nend\n", "authentic.1.trc:1", "request 9, which is not outstanding"},
      {"irecv 0 1 1 8 2\nirecv 0 1 1 8 2\nend\n", "authentic.1.trc:2", "already outstanding"},
      {"coll MPI_Frob 1 -1 0 0\nend\n", "authentic.1.trc:1", "unknown collective 'MPI_Frob'"},
      {"call MPI_Get_count\nend\n", "authentic.1.trc:1", "not listed in the rank manifest"},
      {"end\ncpu 1\n", "authentic.1.trc:2", "record after 'end'"},
      {"cpu 1 2\nend\n", "authentic.1.trc:1", "more fields than expected"},
      {"cpu 1\ncpu 2\n", "authentic.1.trc:2", "stops without its 'end' line"},
  };
  for (const Case& c : cases) {
    TempDir dir;
    std::string error;
    try {
      auto traces = trace::open_traces(make_set(dir, c.stream));
      records(*traces[0], 1);
    } catch (const trace::FormatError& e) {
      error = e.what();
    }
    EXPECT_NE(error.find(c.where), std::string::npos) << c.stream << " -> " << error;
    EXPECT_NE(error.find(c.message), std::string::npos) << c.stream << " -> " << error;
  }
}

TEST(Native, RejectsBadManifests) {
  struct Case {
    std::string manifest;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"format = \"tareador-trace-set\"\nversion = 6\nname = \"x\"\nranks = 1\nmips = 1.0\n",
       "version 6 is not supported"},
      {"format = \"other\"\nversion = 1\nname = \"x\"\nranks = 1\nmips = 1.0\n", "format is not"},
      {"format = \"tareador-trace-set\"\nversion = 1\nname = \"x\"\nmips = 1.0\n",
       "missing key 'ranks'"},
      {"format = \"tareador-trace-set\"\nversion = 1\nname = \"x\"\nranks = 1\nmips = 0.0\n",
       "mips must be positive"},
      {"format = \"tareador-trace-set\"\nversion = 1\nname = \"x\"\nranks = 1\nmips = 1.0\n"
       "kinds = [\"weird\"]\n",
       "unknown trace kind 'weird'"},
      {"format = = 3\n", "manifest.toml:1"},
  };
  for (const Case& c : cases) {
    TempDir dir;
    dir.write("set/manifest.toml", c.manifest);
    std::string error;
    try {
      trace::open_traces(dir.path("set"));
    } catch (const trace::FormatError& e) {
      error = e.what();
    }
    EXPECT_NE(error.find(c.message), std::string::npos) << c.manifest << " -> " << error;
  }
}

// The rank manifest says which dependency kinds tasks mode found (--emit-source needs war to
// see the creating code overwrite what a pending task reads); an older set says nothing.
TEST(Native, RankManifestsSayWhichTaskDependenciesWereFound) {
  TempDir dir;
  std::string set = make_set(dir, kRank1);
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"complete\"\nopaque_calls = []\ndependencies = \"raw+war\"\n"
            "\n[[communicator]]\nid = 1\ntasks = [0, 1]\n");
  auto traces = trace::open_traces(set);
  EXPECT_EQ(traces[0]->header().task_dependencies, (std::vector<std::string>{"", "raw+war"}));
  dir.write("set/rank-1.toml", "rank = 1\nstatus = \"complete\"\ndependencies = 3\n");
  std::string error;
  try {
    trace::open_traces(set);
  } catch (const trace::FormatError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("rank-1.toml:3: dependencies must be a string"), std::string::npos) << error;
}

TEST(Native, CommunicatorsMustAgreeAcrossRanks) {
  TempDir dir;
  std::string set = make_set(dir, kRank1);
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"complete\"\n[[communicator]]\nid = 1\ntasks = [1, 0]\n");
  try {
    trace::open_traces(set);
    FAIL() << "accepted";
  } catch (const trace::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("rank-1.toml:3: communicator 1 has other members"),
              std::string::npos)
        << e.what();
  }
}

TEST(Native, TruncatedRanksAreNoted) {
  TempDir dir;
  std::string set = make_set(dir, "irecv 0 10 1 4096 3\n");  // no end: the rank died
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"truncated\"\nreason = \"killed by SIGSEGV\"\n"
            "[[communicator]]\nid = 1\ntasks = [0, 1]\n");
  auto traces = trace::open_traces(set);
  ASSERT_EQ(traces[0]->header().notes.size(), 1u);
  EXPECT_EQ(traces[0]->header().notes[0], "rank 1 truncated: killed by SIGSEGV");
  EXPECT_EQ(records(*traces[0], 1).size(), 1u);
}

TEST(Native, ARankThatNeverFinishedIsTruncated) {
  // What the tool leaves until a rank's end: the process was killed without warning.
  TempDir dir;
  std::string set = make_set(dir, "# tareador stream v1 kind=authentic rank=1\ncpu 1000\n");
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"running\"\n[[communicator]]\nid = 1\n"
            "tasks = [0, 1]\n");
  auto traces = trace::open_traces(set);
  const trace::TraceHeader& h = traces[0]->header();
  EXPECT_EQ(h.truncated_tasks, std::vector<int>{1});
  ASSERT_EQ(h.notes.size(), 1u);
  EXPECT_NE(h.notes[0].find("rank 1 truncated: its process did not finish (killed without "
                            "warning"),
            std::string::npos);
  EXPECT_EQ(records(*traces[0], 1).size(), 1u);

  // The manifest the tool leaves while a rank has long waited in MPI_Recv names the call.
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"running\"\nreason = \"inside MPI_Recv\"\n"
            "[[communicator]]\nid = 1\ntasks = [0, 1]\n");
  traces = trace::open_traces(set);
  const std::vector<std::string>& notes = traces[0]->header().notes;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("or still running), inside MPI_Recv"), std::string::npos) << notes[0];
}

TEST(Native, ALineCutByTheDeathOfItsRankIsLeftOut) {
  TempDir dir;
  // "irecv 0 1" would be a malformed record; in a truncated stream it is what the death cut.
  std::string set = make_set(dir, "call MPI_Comm_rank\ncpu 1000\nirecv 0 1");
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"truncated\"\nreason = \"disk full\"\n"
            "opaque_calls = [\"MPI_Comm_rank\"]\n[[communicator]]\nid = 1\n"
            "tasks = [0, 1]\n");
  auto traces = trace::open_traces(set);
  EXPECT_EQ(records(*traces[0], 1).size(), 2u);
  const std::vector<std::string>& notes = traces[0]->header().notes;
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[1], "rank 1: the last line of " + dir.path("set/authentic.1.trc") +
                          " is incomplete (9 bytes: the writer stopped there): left out");
  // In a rank that completed, the same line is an error of the stream.
  dir.write("set/rank-1.toml",
            "rank = 1\nstatus = \"complete\"\nopaque_calls = "
            "[\"MPI_Comm_rank\"]\n[[communicator]]\nid = 1\ntasks = [0, 1]\n");
  auto complete = trace::open_traces(set);
  EXPECT_THROW(records(*complete[0], 1), trace::FormatError);
}

TEST(Native, ARankWithoutItsFilesReadsAsEmptyAndItsCallsAreFoundInItsStream) {
  TempDir dir;
  std::string set = make_set(dir, kRank1);
  std::filesystem::remove(dir.path("set/rank-1.toml"));  // died before writing any
  auto traces = trace::open_traces(set);
  EXPECT_EQ(traces[0]->header().call_names, std::vector<std::string>{"MPI_Comm_rank"});
  EXPECT_EQ(records(*traces[0], 1).size(), 5u);
  std::filesystem::remove(dir.path("set/authentic.1.trc"));
  traces = trace::open_traces(set);
  EXPECT_TRUE(records(*traces[0], 1).empty());
  EXPECT_EQ(traces[0]->header().notes.back(),
            "rank 1 has no authentic.1.trc: its process died before creating it");
}

TEST(Native, ConvertingDimemasToNativeKeepsTheSimulatedTime) {
  TempDir dir;
  auto dim = trace::open_dimemas(fixture("dimemas/ring.dim"));
  trace::TraceHeader header = dim->header();
  header.kind = "authentic";
  header.mips = 1e6;  // 1 instruction per picosecond: bursts survive the rounding exactly enough
  auto writer = trace::make_native_writer(dir.path("set"), header);
  trace::copy_trace(*dim, *writer);
  auto native = trace::open_traces(dir.path("set"));
  ASSERT_EQ(native.size(), 1u);
  replay::Machine m = testing::machine(4, 250, 5e-6);
  EXPECT_NEAR(replay::simulate(*native[0], m).total_time, replay::simulate(*dim, m).total_time,
              1e-12);
  EXPECT_TRUE(trace::validate(*native[0]).problems.empty());
}

}  // namespace
}  // namespace tareador
