/**
 * Default stop word lists of Lucene 7.7's language analyzers (data). Sources, as Lucene ships
 * them under lucene/analysis/common/src/resources/org/apache/lucene/analysis/:
 * - snowball/{dutch,german,russian}_stop.txt: the Snowball project's lists (snowballstem.org,
 *   BSD licence), comments dropped;
 * - ar/, fa/ stopwords.txt: Jacques Savoy's lists (BSD licence);
 * - cz/stopwords.txt: Lucene's Czech list.
 * Words are separated by whitespace.
 */

const words = (s: string): readonly string[] => s.split(/\s+/).filter((w) => w.length > 0);

export const CZECH = words(`a s k o i u v z dnes cz tímto budeš budem byli jseš můj svým ta tomto
tohle tuto tyto jej zda proč máte tato kam tohoto kdo kteří mi nám tom tomuto mít nic proto kterou
byla toho protože asi ho naši napište re což tím takže svých její svými jste aj tu tedy teto bylo kde
ke pravé ji nad nejsou či pod téma mezi přes ty pak vám ani když však neg jsem tento článku články
aby jsme před pta jejich byl ještě až bez také pouze první vaše která nás nový tipy pokud může
strana jeho své jiné zprávy nové není vás jen podle zde už být více bude již než který by které co
nebo ten tak má při od po jsou jak další ale si se ve to jako za zpět ze do pro je na atd atp jakmile
přičemž já on ona ono oni ony my vy jí ji mě mne jemu tomu těm těmu němu němuž jehož jíž jelikož
jež jakož načež`);

export const RUSSIAN = words(`и в во не что он на я с со как а то все она так его но да ты к у же
вы за бы по только ее мне было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже
или ни быть был него до вас нибудь опять уж вам сказал ведь там потом себя ничего ей может они тут
где есть надо ней для мы тебя их чем была сам чтоб без будто человек чего раз тоже себе под жизнь
будет ж тогда кто этот говорил того потому этого какой совсем ним здесь этом один почти мой тем
чтобы нее кажется сейчас были куда зачем сказать всех никогда сегодня можно при наконец два об
другой хоть после над больше тот через эти нас про всего них какая много разве сказала три эту моя
впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой им более всегда конечно всю
между`);

export const DUTCH = words(`de en van ik te dat die in een hij het niet zijn is was op aan met als
voor had er maar om hem dan zou of wat mijn men dit zo door over ze zich bij ook tot je mij uit der
daar haar naar heb hoe heeft hebben deze u want nog zal me zij nu ge geen omdat iets worden toch al
waren veel meer doen toen moet ben zonder kan hun dus alles onder ja eens hier wie werd altijd doch
wordt wezen kunnen ons zelf tegen na reeds wil kon niets uw iemand geweest andere`);

export const GERMAN = words(`aber alle allem allen aller alles als also am an ander andere anderem
anderen anderer anderes anderm andern anderr anders auch auf aus bei bin bis bist da damit dann der
den des dem die das daß derselbe derselben denselben desselben demselben dieselbe dieselben dasselbe
dazu dein deine deinem deinen deiner deines denn derer dessen dich dir du dies diese diesem diesen
dieser dieses doch dort durch ein eine einem einen einer eines einig einige einigem einigen einiger
einiges einmal er ihn ihm es etwas euer eure eurem euren eurer eures für gegen gewesen hab habe
haben hat hatte hatten hier hin hinter ich mich mir ihr ihre ihrem ihren ihrer ihres euch im in
indem ins ist jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann kein keine keinem
keinen keiner keines können könnte machen man manche manchem manchen mancher manches mein meine
meinem meinen meiner meines mit muss musste nach nicht nichts noch nun nur ob oder ohne sehr sein
seine seinem seinen seiner seines selbst sich sie ihnen sind so solche solchem solchen solcher
solches soll sollte sondern sonst über um und uns unse unsem unsen unser unses unter viel vom von
vor während war waren warst was weg weil weiter welche welchem welchen welcher welches wenn werde
werden wie wieder will wir wird wirst wo wollen wollte würde würden zu zum zur zwar zwischen`);

export const ARABIC = words(`من ومن منها منه في وفي فيها فيه و ف ثم او أو ب بها به ا أ اى اي أي أى
لا ولا الا ألا إلا لكن ما وما كما فما عن مع اذا إذا ان أن إن انها أنها إنها انه أنه إنه بان بأن فان
فأن وان وأن وإن التى التي الذى الذي الذين الى الي إلى إلي على عليها عليه اما أما إما ايضا أيضا كل
وكل لم ولم لن ولن هى هي هو وهى وهي وهو فهى فهي فهو انت أنت لك لها له هذه هذا تلك ذلك هناك كانت
كان يكون تكون وكانت وكان غير بعض قد نحو بين بينما منذ ضمن حيث الان الآن خلال بعد قبل حتى عند
عندما لدى جميع`);

export const PERSIAN =
  words(`انان نداشته سراسر خياه ايشان وي تاكنون بيشتري دوم پس ناشي وگو يا داشتند
سپس هنگام هرگز پنج نشان امسال ديگر گروهي شدند چطور ده و دو نخستين ولي چرا چه وسط ه كدام قابل يك
رفت هفت همچنين در هزار بله بلي شايد اما شناسي گرفته دهد داشته دانست داشتن خواهيم ميليارد وقتيكه
امد خواهد جز اورده شده بلكه خدمات شدن برخي نبود بسياري جلوگيري حق كردند نوعي بعري نكرده نظير
نبايد بوده بودن داد اورد هست جايي شود دنبال داده بايد سابق هيچ همان انجا كمتر كجاست گردد كسي تر
مردم تان دادن بودند سري جدا ندارند مگر يكديگر دارد دهند بنابراين هنگامي سمت جا انچه خود دادند
زياد دارند اثر بدون بهترين بيشتر البته به براساس بيرون كرد بعضي گرفت توي اي ميليون او جريان تول
بر مانند برابر باشيم مدتي گويند اكنون تا تنها جديد چند بي نشده كردن كردم گويد كرده كنيم نمي نزد
روي قصد فقط بالاي ديگران اين ديروز توسط سوم ايم دانند سوي استفاده شما كنار داريم ساخته طور امده
رفته نخست بيست نزديك طي كنيد از انها تمامي داشت يكي طريق اش چيست روب نمايد گفت چندين چيزي تواند
ام ايا با ان ايد ترين اينكه ديگري راه هايي بروز همچنان پاعين كس حدود مختلف مقابل چيز گيرد ندارد
ضد همچون سازي شان مورد باره مرسي خويش برخوردار چون خارج شش هنوز تحت ضمن هستيم گفته فكر بسيار
پيش براي روزهاي انكه نخواهد بالا كل وقتي كي چنين كه گيري نيست است كجا كند نيز يابد بندي حتي
توانند عقب خواست كنند بين تمام همه ما باشند مثل شد اري باشد اره طبق بعد اگر صورت غير جاي بيش
ريزي اند زيرا چگونه بار لطفا مي درباره من ديده همين گذاري برداري علت گذاشته هم فوق نه ها شوند
اباد همواره هر اول خواهند چهار نام امروز مان هاي قبل كنم سعي تازه را هستند زير جلوي عنوان بود`);

/** Lucene CJKAnalyzer's default stop set (English function words plus s, t, www). */
export const CJK = words(`a and are as at be but by for if in into is it no not of on or s such t
that the their then there these they this to was will with www`);
